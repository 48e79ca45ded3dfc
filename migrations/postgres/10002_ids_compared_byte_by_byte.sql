-- PostgreSQL only: ids and keys compare byte by byte (collation "C").
--
-- A text column compares by the database's collation. The default of most servers is a
-- language's (the postgres image of docker-compose.yml: en_US.utf8), and every comparison of two
-- different values then goes through the C library's `strcoll`. Our ids (UUIDs, token hashes, game
-- and node names) are ASCII, and a query orders by one only to break ties (a leaderboard's equal
-- ratings, games finished in the same millisecond), where byte order is what SQLite uses too: the
-- language's rules buy nothing, yet every index probe pays for them: the writer's insert of each
-- action into actions' primary key, the per-statement check that its game is stored, each foreign
-- key. In byte order the writer's backend spent 4-8% less CPU per action (docs/performance.md).
-- Equality is unchanged (each collation here is deterministic), so no stored row, key or
-- constraint changes meaning.
--
-- Only the indexes are rebuilt (the text itself is not rewritten); on a large log that takes a
-- while once, under this migration's lock. Names (`accounts.name`, `name_key`) keep the
-- database's collation: they are people's words, not ids.

-- The rename guard names games.id, which cannot change type under it: it is set again below.
drop trigger games_are_not_renamed on games;

alter table accounts alter column id type text collate "C";
alter table tokens alter column hash type text collate "C", alter column account_id type text collate "C";
alter table lobbies alter column id type text collate "C", alter column host type text collate "C";
alter table games alter column id type text collate "C", alter column lobby_id type text collate "C";
alter table game_players alter column game_id type text collate "C", alter column account_id type text collate "C";
alter table actions alter column game_id type text collate "C";
alter table chat_messages
    alter column game_id type text collate "C",
    alter column lobby_id type text collate "C",
    alter column account_id type text collate "C";
alter table chat_mutes alter column lobby_id type text collate "C", alter column account_id type text collate "C";
alter table ratings alter column account_id type text collate "C";
alter table rematches alter column game_id type text collate "C", alter column lobby_id type text collate "C";
alter table table_leases alter column game type text collate "C", alter column node type text collate "C";

create trigger games_are_not_renamed before update of id on games
    for each row when (old.id is distinct from new.id) execute function games_are_kept();

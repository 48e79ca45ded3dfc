-- PostgreSQL only (these files run after those of `migrations/`; SQLite keeps its foreign key,
-- whose check there is one index lookup per row).
--
-- Every action belongs to a stored game, as before; what changes is how that is checked. The
-- foreign key from actions to games checked each appended row on its own: a trigger event per
-- row, a lookup of the game's row, and a lock on it (written to the WAL). The writer appends the
-- actions of many games in one statement, and those per-row checks were a third of what the
-- writer cost PostgreSQL (docs/performance.md). The same rule is now checked once per statement,
-- over all of its rows, and the other half of what the key ensured, that a game with actions is
-- never removed or renamed, is kept by refusing to delete, truncate or rename any game: games
-- are the headers of the audit log, and nothing removes them.
alter table actions drop constraint actions_game_id_fkey;

-- Each new row's game is looked up in games' primary key, as the key's own check did. The plan
-- is made once per connection and kept while games grows: `offset 0` keeps the lookup a probe
-- per row (not a join the planner may build on a scan of all of games while the table is small),
-- and `enable_seqscan = off` keeps the probe on the index however small games was then.
create function actions_belong_to_stored_games() returns trigger language plpgsql
set enable_seqscan = off as $$
begin
    if exists (select 1 from new_actions a where not exists (select 1 from games g where g.id = a.game_id offset 0)) then
        raise exception 'every action must belong to a stored game'
            using errcode = 'foreign_key_violation', table = 'actions';
    end if;
    return null;
end
$$;

create trigger actions_belong_to_stored_games_on_insert after insert on actions
    referencing new table as new_actions
    for each statement execute function actions_belong_to_stored_games();
create trigger actions_belong_to_stored_games_on_update after update on actions
    referencing new table as new_actions
    for each statement execute function actions_belong_to_stored_games();

create function games_are_kept() returns trigger language plpgsql as $$
begin
    raise exception 'a game is never removed or renamed: it heads its actions'' log'
        using errcode = 'foreign_key_violation', table = 'games';
end
$$;

create trigger games_are_not_deleted before delete on games
    for each row execute function games_are_kept();
create trigger games_are_not_renamed before update of id on games
    for each row when (old.id is distinct from new.id) execute function games_are_kept();
create trigger games_are_not_truncated before truncate on games
    for each statement execute function games_are_kept();

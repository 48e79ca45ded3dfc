-- Table chat, kept apart from the game log: a message is never an action, so the verifiable log and
-- its state hashes do not change. A message belongs to a lobby's chat or to a game's (one of the two).
create table chat_messages (
    -- microseconds since the epoch, made unique and increasing by the server: the order of a chat
    id bigint primary key,
    lobby_id text references lobbies (id),
    game_id text references games (id),
    -- no foreign key: a guest account nobody can sign in as any more is purged (see the store),
    -- and its messages stay, under the name kept beside them
    account_id text not null,
    -- the author's name and seat when they wrote, as readers saw them
    name text not null,
    seat bigint,
    -- 1 when the author wrote as a spectator
    spectator bigint not null,
    text text not null,
    created_at bigint not null,
    check ((lobby_id is null) <> (game_id is null))
);
create index chat_messages_lobby on chat_messages (lobby_id, id);
create index chat_messages_game on chat_messages (game_id, id);

-- members the host of a lobby muted: they cannot write in the lobby's chat nor in its game's
create table chat_mutes (
    lobby_id text not null references lobbies (id),
    -- no foreign key, as above
    account_id text not null,
    created_at bigint not null,
    primary key (lobby_id, account_id)
);

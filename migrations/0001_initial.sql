-- The Chapterhouse store. One dialect serves PostgreSQL and SQLite: times are unix milliseconds, ids are
-- text (uuids), flags are 0/1 bigints and JSON values are text, so both backends share one query set.

-- people, guests and bots
create table accounts (
    id text primary key,
    name text not null,
    -- lowercased name of a registered account; null for guests and bots, whose names need not be unique
    name_key text unique,
    kind text not null check (kind in ('guest', 'registered', 'bot')),
    password_hash text,
    created_at bigint not null
);

-- bearer tokens: only the sha-256 of a token is kept
create table tokens (
    hash text primary key,
    account_id text not null references accounts (id),
    created_at bigint not null,
    revoked_at bigint
);
create index tokens_account on tokens (account_id);

-- a lobby's whole state is one json document; the columns beside it serve the queries
create table lobbies (
    id text primary key,
    game text not null,
    public bigint not null,
    status text not null,
    host text not null references accounts (id),
    state text not null,
    created_at bigint not null,
    updated_at bigint not null
);
create index lobbies_listing on lobbies (public, status, created_at);

-- one row per game played; the seed stays here, hidden, until the game is over
create table games (
    id text primary key,
    lobby_id text references lobbies (id),
    game text not null,
    engine_version text not null,
    options text not null,
    seats text not null,
    -- json array of booleans: which seats bots play
    bots text not null,
    public bigint not null,
    invite_code text,
    turn_seconds bigint,
    seed text not null,
    seed_commitment text not null,
    initial_hash text not null,
    status text not null check (status in ('running', 'finished', 'broken')),
    outcome text,
    created_at bigint not null,
    finished_at bigint
);
create index games_status on games (status);

-- who played which seat (bots included), for "my games"
create table game_players (
    game_id text not null references games (id),
    seat bigint not null,
    account_id text not null references accounts (id),
    primary key (game_id, seat)
);
create index game_players_account on game_players (account_id);

-- the write-ahead log of every accepted action
create table actions (
    game_id text not null references games (id),
    seq bigint not null,
    seat bigint not null,
    action text not null,
    state_hash text not null,
    created_at bigint not null,
    primary key (game_id, seq)
);

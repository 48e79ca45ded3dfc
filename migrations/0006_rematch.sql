-- "Play again": the one lobby a finished game's rematch was offered in. The first player to ask
-- creates it; everyone after them is sent to the same lobby (the primary key decides a race).
create table rematches (
    game_id text primary key references games (id),
    lobby_id text not null references lobbies (id),
    created_at bigint not null
);

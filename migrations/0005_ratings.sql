-- Glicko-2 ratings, one per registered account and game. They are derived data: a rated game's
-- result updates them in the commit that finishes the game, and `chapterhouse ratings rebuild`
-- recomputes them all from the finished games, in the order they finished.
create table ratings (
    account_id text not null references accounts (id),
    game text not null,
    rating double precision not null,
    deviation double precision not null,
    volatility double precision not null,
    -- rated games played
    games bigint not null,
    updated_at bigint not null,
    primary key (account_id, game)
);
create index ratings_leaderboard on ratings (game, rating);

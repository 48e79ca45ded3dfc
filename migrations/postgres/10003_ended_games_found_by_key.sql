-- PostgreSQL only: the games that end in one of the writer's batches are found by their key,
-- however small the tables were when the statement was first planned.
--
-- The writer stores a batch in which games end as one statement (store/games.rs,
-- FINISH_UNRATED_PG): it counts the ended games whose lobby asks for ratings, and when there are
-- none it appends the actions and marks those games finished. Those games and their lobbies were
-- joined to the batch's list of ended games. A prepared statement's plan is made once per
-- connection and then kept, and it was made in a server's first seconds, while `games` held a few
-- hundred rows: a hash join over a scan of all of `games`, twice, for every such batch, however
-- large `games` grew (until an analyze of the table happened to replan it). The lookups and the
-- update are now this function's, whose plans are made with sequential scans, hash joins and
-- merge joins off: each ended game is one probe of `games`' primary key and one of `lobbies`'.
--
-- `ended` holds a line per game, its id and its outcome's JSON text separated by a tab.
-- Answers how many of those games are rated; when none is, it has marked them all finished at
-- `finished` (milliseconds), and when one is, it has changed nothing (the caller then stores the
-- batch in a transaction that rates them).
create function finish_unrated_games(finished bigint, ended text) returns bigint language plpgsql
set enable_seqscan = off set enable_hashjoin = off set enable_mergejoin = off as $$
declare
    rated bigint;
begin
    select count(*) into rated
    from unnest(string_to_array(ended, E'\n')) as e
    join games g on g.id = split_part(e, E'\t', 1)
    join lobbies lo on lo.id = g.lobby_id
    where lo.state ~ '"rated"\s*:\s*true';
    if rated = 0 then
        update games set status = 'finished', outcome = split_part(e, E'\t', 2), finished_at = finished
        from unnest(string_to_array(ended, E'\n')) as e
        where games.id = split_part(e, E'\t', 1);
    end if;
    return rated;
end
$$;

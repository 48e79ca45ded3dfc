-- cluster mode (several nodes over one postgresql): which node owns each live table. a node appends to a game
-- only while it holds the game's lease with the epoch it took it at; taking a lease over bumps the epoch, so an
-- old owner's appends are refused in the very transaction that would write them (the epoch is a fencing token).
-- times are unix milliseconds of the database's clock, so nodes' clocks need not agree. unused by a single node.
create table table_leases (
    game text primary key,
    node text not null,
    epoch bigint not null,
    expires_at bigint not null
);
create index table_leases_node on table_leases (node);

-- Which moves the turn clock made: when a person's time per turn runs out, a random legal move is
-- played for their seat. 1 marks such a move; null is the player's own (or a bot's). The game log,
-- the events and the replay show it, so that a timed-out move is never taken for a choice.
alter table actions add column by_clock bigint;

-- tokens expire after a stretch without use (sliding expiry): remember when each was last used
alter table tokens add column last_used_at bigint;

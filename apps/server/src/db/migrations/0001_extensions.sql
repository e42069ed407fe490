-- btree_gist lets EXCLUDE constraints combine equality on ids with overlap on validity ranges.
CREATE EXTENSION IF NOT EXISTS btree_gist;

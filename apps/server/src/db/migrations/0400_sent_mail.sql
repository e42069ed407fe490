-- Sent mail (issue 20 item 5): without SMTP_URL (the embedded default) the server sends no e-mail;
-- it keeps each message, exactly as it would have gone to a mail server, as an .eml file in its
-- data directory (SENT_MAIL_DIR, default <DATA_DIR>/sent-mail) and records it here, so the
-- administrator's "sent mail" page lists it and downloads the file (modules/delivery/sent-mail.ts).
-- A message belongs to the area its report was ordered in: area data under row-level security.
CREATE TABLE sent_mail (
  id bigserial PRIMARY KEY,
  tenant uuid NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  sender text NOT NULL CONSTRAINT sent_mail_sender_length CHECK (length(sender) <= 4000),
  recipients text[] NOT NULL CONSTRAINT sent_mail_recipients_count CHECK (cardinality(recipients) <= 100),
  subject text NOT NULL CONSTRAINT sent_mail_subject_length CHECK (length(subject) <= 4000),
  -- The attachments' names.
  file_names text[] NOT NULL CONSTRAINT sent_mail_file_names_count CHECK (cardinality(file_names) <= 100),
  -- The .eml file, relative to the mail directory, and its size.
  eml_file text NOT NULL CONSTRAINT sent_mail_eml_file_name CHECK (eml_file ~ '^[A-Za-z0-9._-]{1,200}$'),
  size_bytes bigint NOT NULL,
  -- Who the message was sent for (the report's orderer), when known.
  username text,
  -- NODE_NAME of the server whose directory holds the file (several nodes each keep their own).
  node text NOT NULL
);
SELECT rw_isolate_by_area('sent_mail');
-- The page lists the newest first, across the areas of its administrator.
CREATE INDEX sent_mail_tenant_time_idx ON sent_mail (tenant, sent_at DESC, id DESC);

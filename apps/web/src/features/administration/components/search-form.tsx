import { useState, type ReactNode } from 'react';
import { Button, Group, TextInput } from '@mantine/core';

export interface SearchFormProps {
  /** The search string the list shows now (the URL's), the field's first value. */
  initial: string;
  label: string;
  buttonLabel: string;
  /** Submitted: the trimmed search string. */
  onSearch: (searchString: string) => void;
  /** The list's filter checkboxes, between the field and the button. */
  children?: ReactNode;
}

/** The search row of the user and organisation overviews: a text typed, then searched on submit. */
export function SearchForm({ initial, label, buttonLabel, onSearch, children }: SearchFormProps) {
  const [draft, setDraft] = useState(initial);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(draft.trim());
      }}
    >
      <Group align="end">
        <TextInput label={label} value={draft} onChange={(e) => setDraft(e.currentTarget.value)} />
        {children}
        <Button type="submit" variant="outline">
          {buttonLabel}
        </Button>
      </Group>
    </form>
  );
}

import { SendHorizontal } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { IconButton } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { searchMessages } from '../search-messages';

/**
 * The query box: Enter or the send button runs the search; nothing runs without a trimmed query.
 * Without an API key there is nothing to search with, so the box itself is disabled.
 */
export function SearchQueryBox({ disabled, noApiKey, onSearch }: { disabled: boolean; noApiKey: boolean; onSearch(query: string): void }) {
  const [query, setQuery] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!disabled && query.trim()) onSearch(query);
  };
  return (
    <form role="search" onSubmit={submit} className="relative flex-1">
      <Input
        type="text"
        aria-label="Search query"
        placeholder={searchMessages.queryPlaceholder}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        className="pr-11"
        disabled={noApiKey}
        enterKeyHint="search"
      />
      <IconButton type="submit" label="Send search" disabled={disabled || !query.trim()} className="absolute top-1/2 right-1 -translate-y-1/2">
        <SendHorizontal className="size-4" />
      </IconButton>
    </form>
  );
}

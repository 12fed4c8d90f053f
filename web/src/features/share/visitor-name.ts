import { VISITOR_NAME_MAX_LENGTH } from '@takes/contract';
import { useCallback, useState } from 'react';

/** The name a visitor comments under, remembered on this device for every shared link. */
const STORAGE_KEY = 'takes.visitorName';

function readStoredName(): string {
  try {
    return (localStorage.getItem(STORAGE_KEY) ?? '').trim().slice(0, VISITOR_NAME_MAX_LENGTH);
  } catch {
    // Storage can be blocked (private modes, strict settings): the name then lasts this visit only.
    return '';
  }
}

export function useVisitorName(): [string, (name: string) => void, () => void] {
  const [name, setNameState] = useState(readStoredName);
  const setName = useCallback((next: string) => {
    const trimmed = next.trim().slice(0, VISITOR_NAME_MAX_LENGTH);
    setNameState(trimmed);
    try {
      localStorage.setItem(STORAGE_KEY, trimmed);
    } catch {
      // See readStoredName.
    }
  }, []);
  const clearName = useCallback(() => {
    setNameState('');
    try {
      localStorage.removeItem(STORAGE_KEY);
    } catch {
      // See readStoredName.
    }
  }, []);
  return [name, setName, clearName];
}

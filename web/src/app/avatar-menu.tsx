import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { SessionUser } from '@takes/contract';
import { UserAvatar } from '../features/auth/user-avatar';
import { useAuth } from '../features/auth/use-auth';

const itemClass =
  'block w-full px-4 py-2 text-left text-sm text-zinc-700 hover:bg-zinc-100 focus:bg-zinc-100 focus:outline-none dark:text-zinc-200 dark:hover:bg-zinc-800 dark:focus:bg-zinc-800';

/** The signed-in person's menu: who is signed in, profile, settings and sign out. */
export function AvatarMenu({ user }: { user: SessionUser }) {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const signedInAsId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  const menuItems = () =>
    Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    if (!open) return;
    menuItems()[0]?.focus();
    const closeOnOutsidePointer = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOnOutsidePointer);
    return () => document.removeEventListener('pointerdown', closeOnOutsidePointer);
  }, [open]);

  function closeAndFocusButton() {
    setOpen(false);
    buttonRef.current?.focus();
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const items = menuItems();
    const current = items.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      Home: 0,
      End: items.length - 1,
    };
    if (event.key === 'Escape') {
      event.preventDefault();
      closeAndFocusButton();
      return;
    }
    if (event.key === 'Tab') {
      setOpen(false);
      return;
    }
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    items[(target + items.length) % items.length]?.focus();
  }

  async function onSignOut() {
    setOpen(false);
    // Leave the protected page first (rendered at once), so its guard does not send us to /login.
    await navigate('/', { flushSync: true });
    try {
      await signOut();
    } catch (error) {
      console.error('Sign out failed', error);
    }
  }

  return (
    <div ref={containerRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-label="Account menu"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((isOpen) => !isOpen)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
        className="flex rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
      >
        <UserAvatar user={user} />
      </button>
      {open && (
        <div className="absolute right-0 z-50 mt-2 w-56 overflow-hidden rounded-md border border-zinc-200 bg-white py-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900">
          <div
            id={signedInAsId}
            className="border-b border-zinc-200 px-4 py-2 dark:border-zinc-700"
          >
            <p className="text-xs text-zinc-500 dark:text-zinc-400">Signed in as</p>
            <p className="truncate text-sm font-medium text-zinc-900 dark:text-white">
              {user.email}
            </p>
          </div>
          <div
            ref={menuRef}
            id={menuId}
            role="menu"
            aria-label="Account"
            aria-describedby={signedInAsId}
            onKeyDown={onMenuKeyDown}
            className="pt-1"
          >
            <Link
              role="menuitem"
              tabIndex={-1}
              to="/profile"
              className={itemClass}
              onClick={() => setOpen(false)}
            >
              Your Profile
            </Link>
            <Link
              role="menuitem"
              tabIndex={-1}
              to="/settings"
              className={itemClass}
              onClick={() => setOpen(false)}
            >
              Settings
            </Link>
            <button
              role="menuitem"
              tabIndex={-1}
              type="button"
              className={itemClass}
              onClick={() => void onSignOut()}
            >
              Sign out
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

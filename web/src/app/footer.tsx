import { Link } from 'react-router';

const footerGroups = [
  {
    title: 'Product',
    links: [
      { to: '/features', label: 'Features' },
      { to: '/pricing', label: 'Pricing' },
      { to: '/download', label: 'Download' },
      { to: '/mobile', label: 'Mobile' },
      { to: '/resources', label: 'Resources' },
    ],
  },
  {
    title: 'Company',
    links: [
      { to: '/about', label: 'About Us' },
      { to: '/roadmap', label: 'Roadmap' },
      { to: '/blog', label: 'Blog' },
      { to: '/careers', label: 'Careers' },
      { to: '/contact', label: 'Contact' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: '/terms', label: 'Terms of Use' },
      { to: '/privacy', label: 'Privacy Policy' },
      { to: '/copyright', label: 'Copyright Policy' },
      { to: '/cookies', label: 'Cookie Policy' },
    ],
  },
] as const;

export function Footer() {
  return (
    <footer className="border-t border-zinc-200 dark:border-zinc-800">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 text-sm text-zinc-600 sm:px-6 md:grid-cols-4 dark:text-zinc-400">
        <div>
          <p className="font-semibold text-zinc-900 dark:text-white">Takes</p>
          <p className="mt-2">Audio collaboration for music creators.</p>
          <p className="mt-2">Your music is never used for AI training.</p>
        </div>
        <nav aria-label="Footer" className="grid grid-cols-2 gap-8 sm:grid-cols-3 md:col-span-3">
          {footerGroups.map((group) => (
            <div key={group.title}>
              <h2 className="font-semibold text-zinc-900 dark:text-white">{group.title}</h2>
              <ul className="mt-3 space-y-2">
                {group.links.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to} className="hover:text-zinc-900 dark:hover:text-white">
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </div>
    </footer>
  );
}

import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { TagsInput } from './tags-input';

function Harness({ initial = [] as string[] }) {
  const [tags, setTags] = useState(initial);
  return (
    <>
      <TagsInput tags={tags} onChange={setTags} />
      <output data-testid="tags">{JSON.stringify(tags)}</output>
    </>
  );
}

const input = () => screen.getByRole('textbox', { name: 'Tags' });
const addButton = () => screen.getByRole('button', { name: 'Add' });
const tags = () => JSON.parse(screen.getByTestId('tags').textContent ?? '[]') as string[];

function type(text: string) {
  fireEvent.change(input(), { target: { value: text } });
}

describe('TagsInput', () => {
  afterEach(cleanup);

  it('adds a tag with the Add button and clears the field', () => {
    render(<Harness />);
    type('mix');
    fireEvent.click(addButton());
    expect(tags()).toEqual(['mix']);
    expect(input()).toHaveProperty('value', '');
  });

  it('adds a tag with Enter', () => {
    render(<Harness />);
    type('master');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(tags()).toEqual(['master']);
  });

  it('trims the tag', () => {
    render(<Harness />);
    type('   vocals  ');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(tags()).toEqual(['vocals']);
  });

  it('ignores an empty or whitespace-only tag on Enter', () => {
    render(<Harness />);
    type('   ');
    fireEvent.keyDown(input(), { key: 'Enter' });
    type('');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(tags()).toEqual([]);
  });

  it('ignores duplicates, also after trimming', () => {
    render(<Harness initial={['drums']} />);
    type(' drums ');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(tags()).toEqual(['drums']);
  });

  it('disables Add while the text is blank', () => {
    render(<Harness />);
    expect(addButton()).toHaveProperty('disabled', true);
    type('   ');
    expect(addButton()).toHaveProperty('disabled', true);
    type('bass');
    expect(addButton()).toHaveProperty('disabled', false);
  });

  it('removes a tag', () => {
    render(<Harness initial={['a', 'b']} />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove tag a' }));
    expect(tags()).toEqual(['b']);
  });

  it('does not submit the surrounding form on Enter', () => {
    let submitted = false;
    render(
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submitted = true;
        }}
      >
        <Harness />
      </form>,
    );
    type('x');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(submitted).toBe(false);
    expect(tags()).toEqual(['x']);
  });
});

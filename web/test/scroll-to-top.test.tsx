import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Link, MemoryRouter, Route, Routes, useNavigate } from 'react-router-dom';
import { ScrollToTop } from '@/app/routes/scroll-to-top';

function Page({ name }: { name: string }) {
  const navigate = useNavigate();
  return (
    <div>
      <h1>{name}</h1>
      <Link to="/b">To B</Link>
      <Link to="/b?tab=2">B, another tab</Link>
      <Link to="/c#members">C at its members</Link>
      <button type="button" onClick={() => navigate(-1)}>
        Back
      </button>
    </div>
  );
}

function renderApp() {
  render(
    <MemoryRouter initialEntries={['/a']}>
      <ScrollToTop />
      <Routes>
        <Route path="/a" element={<Page name="A" />} />
        <Route path="/b" element={<Page name="B" />} />
        <Route path="/c" element={<Page name="C" />} />
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('ScrollToTop: a page navigated to opens at its top', () => {
  it('scrolls up for a new page, not for back, a fragment or a change of search on the same page', async () => {
    const scrolls = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const user = userEvent.setup();
    renderApp();
    scrolls.mockClear(); // the first page is the browser's to place
    await user.click(screen.getByRole('link', { name: 'To B' }));
    await screen.findByRole('heading', { name: 'B' });
    expect(scrolls).toHaveBeenCalledTimes(1);
    expect(scrolls).toHaveBeenLastCalledWith(0, 0);

    await user.click(screen.getByRole('link', { name: 'B, another tab' }));
    expect(scrolls).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('link', { name: 'C at its members' }));
    await screen.findByRole('heading', { name: 'C' });
    expect(scrolls).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('button', { name: 'Back' }));
    await screen.findByRole('heading', { name: 'B' });
    expect(scrolls).toHaveBeenCalledTimes(1);
  });
});

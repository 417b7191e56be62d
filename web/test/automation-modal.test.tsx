import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AutomationModal,
  PREVIEW_STEPS,
  PREVIEW_SUCCESS,
  previewTimeline,
  STEP_MS,
  TYPE_MS,
} from '@/features/referrals/components/automation-modal';
import { formVariantFor, previewAddress, websiteHost } from '@/features/referrals/components/form-variants';

// 5 + 6 + 9 + 0 = 20 characters: typing takes 1 s, so 'Form complete' comes on the 4.8 s beat.
const values = { firstName: 'Grace', lastName: 'Hopper', email: 'g@navy.io', message: '' };

const currentStep = () =>
  screen.getByRole('list', { name: 'Automation steps' }).querySelector('[aria-current="step"]')?.textContent ?? null;
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
/** Radix dismisses on an outside pointer-down completed by its click. */
const clickOutside = () => {
  fireEvent.pointerDown(document.body, { button: 0 });
  fireEvent.click(document.body, { button: 0 });
};
const field = (name: string) => document.querySelector(`[data-field="${name}"]`)?.textContent ?? '';

function renderModal(props: Partial<Parameters<typeof AutomationModal>[0]> = {}) {
  const onClose = vi.fn();
  const onComplete = vi.fn();
  render(
    <AutomationModal
      website="https://www.hubspot.com"
      company="HubSpot, Inc."
      values={values}
      onClose={onClose}
      onComplete={onComplete}
      {...props}
    />,
  );
  return { onClose, onComplete };
}

describe("the 'Automating Referral Form' preview (spec 2, 4, 9)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('advances through the five steps every 1.2 s and ends with the success text and Close', () => {
    const { onComplete } = renderModal();
    expect(screen.getByRole('dialog', { name: 'Automating Referral Form' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Automation steps' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([...PREVIEW_STEPS]);
    expect(currentStep()).toBe('Initializing');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();

    advance(STEP_MS - 50);
    expect(currentStep()).toBe('Initializing');
    advance(50);
    expect(currentStep()).toBe('Opening website');
    expect(screen.getByTestId('preview-address')).toHaveTextContent('https://hubspot.com/partners/referral');
    advance(STEP_MS);
    expect(currentStep()).toBe('Analyzing form fields');
    advance(STEP_MS);
    expect(currentStep()).toBe('Filling out form fields');

    // Typing: one character every 50 ms, field after field.
    expect(field('firstName')).toBe('');
    advance(TYPE_MS * 3);
    expect(field('firstName')).toBe('Gra');
    advance(TYPE_MS * 4);
    expect(field('firstName')).toBe('Grace');
    expect(field('lastName')).toBe('Ho');

    expect(screen.queryByText(PREVIEW_SUCCESS)).not.toBeInTheDocument();
    expect(onComplete).not.toHaveBeenCalled();
    advance(4 * STEP_MS - 3 * STEP_MS - 7 * TYPE_MS - 50);
    expect(screen.queryByText(PREVIEW_SUCCESS)).not.toBeInTheDocument();
    advance(50);
    expect(currentStep()).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent(PREVIEW_SUCCESS);
    expect(field('email')).toBe('g@navy.io');
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    expect(onComplete).toHaveBeenCalledTimes(1);
  });

  it('waits for the typing to finish, then completes on the next 1.2 s beat', () => {
    const long = { ...values, message: 'x'.repeat(40) }; // 60 characters: typing ends at 3.6 + 3 = 6.6 s
    expect(previewTimeline(60).completeAt).toBe(7200);
    renderModal({ values: long });
    advance(7199);
    expect(currentStep()).toBe('Filling out form fields');
    advance(1);
    expect(screen.getByText(PREVIEW_SUCCESS)).toBeInTheDocument();
  });

  it('can be cancelled until it is complete', () => {
    const first = renderModal();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(first.onClose).toHaveBeenCalledTimes(1);
  });

  it('an outside click before completion closes it', () => {
    const { onClose } = renderModal();
    advance(10); // Radix listens for outside pointers from the next tick on
    clickOutside();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('once complete an outside click does not dismiss it; Close and Escape still do', () => {
    const { onClose } = renderModal();
    advance(4 * STEP_MS);
    expect(screen.getByText(PREVIEW_SUCCESS)).toBeInTheDocument();
    clickOutside();
    advance(10);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Automating Referral Form' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});

describe('vendor variants', () => {
  it('picks the form by the vendor host, with a generic form for others', () => {
    expect(websiteHost('www.Salesforce.com/products')).toBe('salesforce.com');
    expect(formVariantFor('https://www.hubspot.com', 'HubSpot').key).toBe('hubspot.com');
    expect(formVariantFor('salesforce.com', 'Salesforce').key).toBe('salesforce.com');
    expect(formVariantFor('https://apps.shopify.com/x', 'Shopify').key).toBe('shopify.com');
    expect(formVariantFor('https://www.notion.so', 'Notion Labs').key).toBe('notion.so');
    // A host that merely ends with a known name is not that vendor.
    expect(formVariantFor('https://nothubspot.com', 'Other').key).toBe('generic');
    const generic = formVariantFor(null, 'Acme Inc');
    expect(generic).toMatchObject({ key: 'generic', brand: 'Acme Inc' });
    expect(previewAddress(null, 'Acme Inc', generic)).toBe('https://acmeinc.com/referral');
  });

  it('renders the variant it picked', () => {
    vi.useFakeTimers();
    render(
      <AutomationModal website="https://salesforce.com" company="Salesforce" values={values} onClose={() => {}} />,
    );
    act(() => vi.advanceTimersByTime(STEP_MS));
    expect(
      screen.getByRole('figure', { name: 'Mock browser preview of the Salesforce referral form' }),
    ).toHaveAttribute('data-variant', 'salesforce.com');
    expect(screen.getByText('Work Email')).toBeInTheDocument();
    vi.useRealTimers();
  });
});

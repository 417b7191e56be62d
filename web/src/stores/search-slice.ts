import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** What the search screen found for the product being referred (spec 3: parsed search result). */
export interface ProductInfo {
  product: string;
  company: string;
  description: string;
  /** The product's website when the search or Smart Match knows it: how the referral finds its vendor. */
  website?: string;
}

export type SearchStatus = 'idle' | 'searching' | 'done' | 'failed';

export interface SearchState {
  query: string;
  status: SearchStatus;
  result: ProductInfo | null;
  /** The answer's text as the AI gave it (carried to the referral form as `searchResult`). */
  resultText: string;
  /** The query the current result answers (carried to the referral form as `originalQuery`). */
  resultQuery: string;
  /** The search in flight: an answer for an older (or reset) search is ignored. */
  requestId: string | null;
  /** Other products that fit the same need (issue 12), best first: the referrer may pick one instead. */
  alternatives: ProductInfo[];
}

export const initialSearchState: SearchState = {
  query: '',
  status: 'idle',
  result: null,
  resultText: '',
  resultQuery: '',
  requestId: null,
  alternatives: [],
};

/** The labelled lines of a product (spec 3), carried as `searchResult` when the referrer picked an alternative. */
const labelled = (product: ProductInfo) =>
  `Product: ${product.product}\nCompany: ${product.company}\nDescription: ${product.description}`;

/** The referral flow's search state: Home, New Referral and Discover start over with `resetSearch`. */
export const searchSlice = createSlice({
  name: 'search',
  initialState: initialSearchState,
  reducers: {
    setQuery(state, action: PayloadAction<string>) {
      state.query = action.payload;
    },
    /** Spec 4: searching clears the previous result. */
    searchStarted(state, action: PayloadAction<{ requestId: string }>) {
      state.status = 'searching';
      state.result = null;
      state.resultText = '';
      state.resultQuery = '';
      state.requestId = action.payload.requestId;
      state.alternatives = [];
    },
    searchSucceeded(
      state,
      action: PayloadAction<{
        requestId: string;
        result: ProductInfo;
        text: string;
        query: string;
        alternatives?: ProductInfo[];
      }>,
    ) {
      if (state.requestId !== action.payload.requestId) return;
      state.status = 'done';
      state.result = action.payload.result;
      state.resultText = action.payload.text;
      state.resultQuery = action.payload.query;
      state.requestId = null;
      state.alternatives = action.payload.alternatives ?? [];
    },
    /** The referrer picked an alternative: it becomes the main card, the previous main takes its place in the list. */
    alternativeChosen(state, action: PayloadAction<number>) {
      const chosen = state.alternatives[action.payload];
      if (!chosen || !state.result) return;
      state.alternatives[action.payload] = state.result;
      state.result = chosen;
      state.resultText = labelled(chosen);
    },
    /** Spec 4: a failure clears the results. */
    searchFailed(state, action: PayloadAction<{ requestId: string }>) {
      if (state.requestId !== action.payload.requestId) return;
      state.status = 'failed';
      state.result = null;
      state.resultText = '';
      state.resultQuery = '';
      state.requestId = null;
      state.alternatives = [];
    },
    resetSearch() {
      return initialSearchState;
    },
  },
});

export const { setQuery, searchStarted, searchSucceeded, searchFailed, resetSearch, alternativeChosen } =
  searchSlice.actions;

import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** What the search screen found for the product being referred (spec 3: parsed search result). */
export interface ProductInfo {
  product: string;
  company: string;
  description: string;
}

export type SearchStatus = 'idle' | 'searching' | 'done' | 'failed';

export interface SearchState {
  query: string;
  status: SearchStatus;
  result: ProductInfo | null;
}

export const initialSearchState: SearchState = { query: '', status: 'idle', result: null };

/** The referral flow's search state: Home, New Referral and Discover start over with `resetSearch`. */
export const searchSlice = createSlice({
  name: 'search',
  initialState: initialSearchState,
  reducers: {
    setQuery(state, action: PayloadAction<string>) {
      state.query = action.payload;
    },
    searchStarted(state) {
      state.status = 'searching';
      state.result = null;
    },
    searchSucceeded(state, action: PayloadAction<ProductInfo>) {
      state.status = 'done';
      state.result = action.payload;
    },
    searchFailed(state) {
      state.status = 'failed';
      state.result = null;
    },
    resetSearch() {
      return initialSearchState;
    },
  },
});

export const { setQuery, searchStarted, searchSucceeded, searchFailed, resetSearch } = searchSlice.actions;

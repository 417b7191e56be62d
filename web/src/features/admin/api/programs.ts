import type { CreateProgramRequest, Program } from '@app/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, queryFetch } from '@/lib/api-client';

export const programsKey = ['/api/programs/all'] as const;

/** GET /api/programs/all: every program (administrators see the inactive ones too). */
export const getPrograms = () => queryFetch<Program[]>(programsKey[0]);

export const programsQueryOptions = () => queryOptions({ queryKey: programsKey, queryFn: getPrograms });

export const usePrograms = () => useQuery(programsQueryOptions());

/** POST /api/programs → 201 Program. */
export const createProgram = (data: CreateProgramRequest) => apiRequest<Program>('POST', '/api/programs', data);

/** PATCH /api/programs/{id} {isActive} → the updated program. */
export const setProgramActive = (id: string, isActive: boolean) =>
  apiRequest<Program>('PATCH', `/api/programs/${encodeURIComponent(id)}`, { isActive });

export function useCreateProgram() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProgram,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: programsKey }),
  });
}

/** The list is fetched again after every switch (spec 7). */
export function useSetProgramActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) => setProgramActive(id, isActive),
    onSettled: () => queryClient.invalidateQueries({ queryKey: programsKey }),
  });
}

import { operations, type CreateProgramRequest } from '@app/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

const list = operations.listPrograms;
export const programsKey = [list.path] as const;

/** GET /api/programs/all: every program (administrators see the inactive ones too). */
export const getPrograms = () => call(list);

export const programsQueryOptions = () => queryOptions({ queryKey: programsKey, queryFn: getPrograms });

export const usePrograms = () => useQuery(programsQueryOptions());

/** POST /api/programs → 201 Program. */
export const createProgram = (body: CreateProgramRequest) => call(operations.createProgram, { body });

/** PATCH /api/programs/{id} {isActive} → the updated program. */
export const setProgramActive = (id: string, isActive: boolean) =>
  call(operations.updateProgram, { params: { id }, body: { isActive } });

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

/** PATCH /api/programs/{id} {vendorId}: links a program to a vendor workspace (null unlinks it). */
export const setProgramVendor = (id: string, vendorId: string | null) =>
  call(operations.updateProgram, { params: { id }, body: { vendorId } });

export function useSetProgramVendor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, vendorId }: { id: string; vendorId: string | null }) => setProgramVendor(id, vendorId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: programsKey }),
  });
}

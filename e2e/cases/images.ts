/**
 * Image content on this machine. podemu runs every image as the host's own file system, so an
 * application image's programs come from Debian packages, and the files an image keeps in its
 * working directory are staged there from the package that ships them.
 */
import { Expectation, HostNeeds } from '../case';

/** Debian's LAMMPS (`lmp`, built with Open MPI), with its reaxff/HNS example staged where the image keeps it. */
export function LAMMPS_NEEDS(workingDir: string): HostNeeds {
  return {
    debianPackages: ['lammps', 'lammps-examples', 'openmpi-bin'],
    stage: [{ from: '/usr/share/lammps/examples/reaxff/HNS', to: workingDir }],
  };
}

/** Why the LAMMPS cases cannot finish here. */
export const LAMMPS_LIMIT = "Debian's LAMMPS is built without the REAXFF package, so in.reaxc.hns stops at `pair_style reax/c`";

/**
 * What a LAMMPS case shows here: one MPI run of `tasks` ranks across the cluster (LAMMPS's
 * processor grid, e.g. `2 by 2 by 2` for 8: Flux's PMI wired Open MPI across the pods), which
 * then stops at the missing pair style, and that error fails the Job with LAMMPS's exit code 1.
 */
export function lammpsExpectation(processorGrid: string, extra: RegExp[] = []): Expectation {
  return {
    result: 'Failed',
    reason: /PodFailurePolicy/,
    leadExit: 1,
    leadOutput: [
      ...extra,
      /^LAMMPS \(/m,
      new RegExp(`^\\s+${processorGrid} MPI processor grid$`, 'm'),
      /^ERROR: Unrecognized pair style 'reax\/c' is part of the REAXFF package which is not enabled/m,
    ],
  };
}

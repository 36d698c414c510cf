/** Every end-to-end case, in the order `npm run e2e` runs them, and the operator tests it refuses. */
import { E2eCase, RejectedCase } from '../case';
import { day2Cases } from './day2';
import { autoscaleCases } from './autoscale';
import { exampleCases } from './examples';
import { faultCases } from './faults';
import { imageVolumeCases } from './image-volume';
import { kueueCases } from './kueue';
import { namespaceCases } from './namespace';
import { networkPolicyCases } from './network-policy';
import { nodeFaultCases } from './node-faults';
import { operatorCases } from './operator';
import { placementCases } from './placement';
import { optionCases } from './options';
import { readinessCases } from './readiness';
import { scaleCases } from './scale';
import { upgradeCases, versionCases } from './versions';

export function allCases(): { cases: E2eCase[]; rejected: RejectedCase[] } {
  const operator = operatorCases();
  return { cases: [...exampleCases(), ...versionCases(), ...upgradeCases(), ...optionCases(), ...readinessCases(), ...imageVolumeCases(), ...scaleCases(), ...autoscaleCases(), ...networkPolicyCases(), ...placementCases(), ...faultCases(), ...nodeFaultCases(), ...namespaceCases(), ...day2Cases(), ...kueueCases(), ...operator.cases], rejected: operator.rejected };
}

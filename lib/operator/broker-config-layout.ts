/**
 * A replacement broker.toml (`flux.brokerConfig`) must point where this cluster puts things: the
 * entrypoint copies the certificate and writes R under the flux view mount path, and brokers reach
 * each other through this cluster's headless Service. Operator-era configs often name the old
 * paths (`/mnt/flux/view/...`) or the old default Service `flux-service`; Flux would then fail to
 * load the certificate or never connect, so these are errors.
 */
import { parse as parseToml } from 'smol-toml';
import { fluxPaths } from '../core/paths';

/** Where this cluster puts things. */
export interface BrokerConfigLayout {
  readonly mountPath: string;
  readonly serviceName: string;
  readonly namespace: string;
}

/** Every way `toml` disagrees with the layout (empty when it fits, or when it is not valid TOML). */
export function brokerConfigLayoutProblems(toml: string, layout: BrokerConfigLayout): string[] {
  let config: Record<string, any>;
  try {
    config = parseToml(toml) as Record<string, any>;
  } catch {
    return []; // reported by FluxBrokerConfig
  }
  const paths = fluxPaths(layout.mountPath);
  const problems: string[] = [];
  const bootstrap = config.bootstrap ?? {};
  if (typeof bootstrap.curve_cert === 'string' && bootstrap.curve_cert !== paths.curveCert) {
    problems.push(`[bootstrap] curve_cert = "${bootstrap.curve_cert}": must be ${paths.curveCert}, where the entrypoint puts the certificate`);
  }
  const resourcePath = config.resource?.path;
  if (typeof resourcePath === 'string' && resourcePath !== paths.resourceFile) {
    problems.push(`[resource] path = "${resourcePath}": must be ${paths.resourceFile}, where the entrypoint writes R`);
  }
  const connects: [string, unknown][] = [['[bootstrap] default_connect', bootstrap.default_connect]];
  if (Array.isArray(bootstrap.hosts)) bootstrap.hosts.forEach((h: any, i: number) => connects.push([`[bootstrap] hosts[${i}].connect`, h?.connect]));
  for (const [where, uri] of connects) {
    if (typeof uri !== 'string') continue;
    // tcp://<host>.<service>.<namespace>.svc.<domain>:<port>
    const m = /^tcp:\/\/[^.:/]+\.([^.:/]+)\.([^.:/]+)\.svc\./.exec(uri);
    if (!m) continue;
    if (m[1] !== layout.serviceName) {
      problems.push(`${where} = "${uri}": names Service '${m[1]}', but this cluster's headless Service is '${layout.serviceName}' `
        + "(network.headlessName; the operator's default was 'flux-service' until 6d5e432a), so brokers would not resolve their peers");
    }
    if (m[2] !== layout.namespace) {
      problems.push(`${where} = "${uri}": names namespace '${m[2]}', but the cluster runs in '${layout.namespace}'`);
    }
  }
  return problems;
}

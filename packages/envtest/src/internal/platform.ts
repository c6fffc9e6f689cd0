//! The os-arch pair in envtest archive and store names (Go's GOOS and GOARCH spelling).

/** Go's name for the operating system (`linux`, `darwin`, `windows`). */
export function goOs(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? 'windows' : platform;
}

/** Go's name for the CPU architecture (`amd64`, `arm64`, `ppc64le`, `s390x`). */
export function goArch(arch: NodeJS.Architecture = process.arch): string {
  switch (arch) {
    case 'x64':
      return 'amd64';
    case 'ia32':
      return '386';
    case 'ppc64':
      return 'ppc64le';
    default:
      return arch;
  }
}

/** `<version>-<os>-<arch>`, e.g. `1.37.2-linux-amd64`: a setup-envtest store folder. */
export function platformSuffix(os = goOs(), arch = goArch()): string {
  return `${os}-${arch}`;
}

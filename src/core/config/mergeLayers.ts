/**
 * Layering (DESIGN.md decision 1): the workspace file overrides the global file per key. Tables
 * merge recursively, scalars and arrays are replaced, and `[[mcp.servers]]` entries are merged by
 * `name` (a workspace entry replaces the global entry of the same name whole). Each written leaf
 * remembers the layer it came from.
 */
import type { ConfigSource } from './problem';
import { formatKeyPath, type KeySegment } from './keyPath';
import type { TomlLocator } from './tomlLocator';
import { isTable } from './validateLayer';

export interface Layer {
  source: 'global' | 'workspace';
  file: string;
  locator?: TomlLocator;
  data: Record<string, unknown>;
  serverOrigins: number[];
}

/** Where one merged `[[mcp.servers]]` entry came from, and which of its leaves were written. */
export interface ServerOrigin {
  source: 'global' | 'workspace';
  /** Index of the entry among that file's `[[mcp.servers]]`. */
  fileIndex: number;
  /** Leaf paths relative to the entry, e.g. `transport.command`. */
  written: Set<string>;
}

export interface MergedLayers {
  data: Record<string, unknown>;
  /** Formatted leaf path → layer, for everything but `mcp.servers` (see `servers`). */
  sources: Map<string, ConfigSource>;
  /** Parallel to `data.mcp.servers`. */
  servers: ServerOrigin[];
}

export function mergeLayers(layers: readonly Layer[]): MergedLayers {
  const merged: MergedLayers = { data: {}, sources: new Map(), servers: [] };
  for (const layer of layers) mergeTable(merged, merged.data, layer.data, [], layer);
  return merged;
}

function mergeTable(merged: MergedLayers, target: Record<string, unknown>, upper: Record<string, unknown>, segments: KeySegment[], layer: Layer): void {
  for (const [key, value] of Object.entries(upper)) {
    const path = [...segments, key];
    if (path.length === 2 && path[0] === 'mcp' && key === 'servers' && Array.isArray(value)) {
      mergeServers(merged, target, value, layer);
    } else if (isTable(value)) {
      if (!isTable(target[key])) target[key] = {};
      mergeTable(merged, target[key] as Record<string, unknown>, value, path, layer);
    } else {
      target[key] = value;
      forgetBelow(merged.sources, formatKeyPath(path));
      merged.sources.set(formatKeyPath(path), layer.source);
    }
  }
}

function mergeServers(merged: MergedLayers, mcp: Record<string, unknown>, entries: unknown[], layer: Layer): void {
  const servers = Array.isArray(mcp.servers) ? (mcp.servers as Record<string, unknown>[]) : [];
  mcp.servers = servers;
  entries.forEach((entry, i) => {
    const server = entry as Record<string, unknown>;
    const origin: ServerOrigin = { source: layer.source, fileIndex: layer.serverOrigins[i] ?? i, written: new Set(leafPaths(server, [])) };
    const existing = servers.findIndex((s) => s.name === server.name);
    if (existing >= 0) {
      servers[existing] = server;
      merged.servers[existing] = origin;
    } else {
      servers.push(server);
      merged.servers.push(origin);
    }
  });
}

/** Formatted paths of every leaf (scalar or array) under a table. */
export function leafPaths(value: Record<string, unknown>, segments: KeySegment[]): string[] {
  return Object.entries(value).flatMap(([key, child]) => (isTable(child) ? leafPaths(child, [...segments, key]) : [formatKeyPath([...segments, key])]));
}

function forgetBelow(sources: Map<string, ConfigSource>, path: string): void {
  for (const key of sources.keys()) if (key.startsWith(`${path}.`) || key.startsWith(`${path}[`)) sources.delete(key);
}

// The Limits form's fields, grouped the way people think about them.
import { useHealthStore } from '../../stores/health-store.js';
import { Field } from '../../components/field.js';
import { Segmented } from '../../components/segmented.js';
import { SliderField } from '../../components/slider-field.js';
import { FIELD_PATHS, type FieldKey } from './limits-form.js';
import type { LimitsForm } from './use-limits-form.js';
import { concurrencyScale, cpusScale, egressBytesScale, egressConnectionsScale, memoryScale, outputCapScale, packageCacheScale, pidsScale, poolMaxScale, poolScale, queueScale, timeoutScale } from './scales.js';

const OUTPUT_MODES = [
  { value: 'compact', label: 'Compact' },
  { value: 'toon', label: 'TOON' },
] as const;

export function LimitsFields({ form, images }: { form: LimitsForm; images: string[] }) {
  const probeImage = useHealthStore((s) => s.report?.image.name);
  const packagesRow = useHealthStore((s) => s.report?.checks.find((c) => c.id === 'packages')?.detail);
  const lockedBy = (key: FieldKey) => form.locked.get(FIELD_PATHS[key]) ?? null;
  const common = (key: FieldKey) => ({
    id: `limit-${key}`,
    value: form.draft[key],
    onChange: (v: string) => form.set(key, v),
    error: form.errors[key] ?? null,
    locked: lockedBy(key),
  });
  const knownImages = [...new Set([...images, ...(probeImage ? [probeImage] : [])])];

  return (
    <div className="limits-form">
      <fieldset className="card group">
        <legend>Resources per run</legend>
        <SliderField {...common('memory')} label="Memory" scale={memoryScale} inputMode="text" hint="No swap: the run is killed when it needs more. Sizes like 512m or 2g." />
        <SliderField {...common('pids')} label="Processes" scale={pidsScale} hint="Threads count too; stops fork bombs." />
        <SliderField {...common('cpus')} label="CPUs" scale={cpusScale} inputMode="decimal" placeholder="all" hint="Fractions allowed; empty uses all host CPUs." />
      </fieldset>

      <fieldset className="card group">
        <legend>Time</legend>
        <SliderField {...common('timeoutSec')} label="Default timeout" unit="s" scale={timeoutScale} hint="Used when the agent does not ask for one." />
        <SliderField {...common('maxTimeoutSec')} label="Maximum timeout" unit="s" scale={timeoutScale} hint="The most an agent may ask for." />
      </fieldset>

      <fieldset className="card group">
        <legend>Output</legend>
        <SliderField {...common('outputCapKiB')} label="Output cap per stream" unit="KiB" scale={outputCapScale} hint="A run that prints more is stopped: “output limit reached”." />
        <Field id="limit-outputMode" label="Result format" error={form.errors.outputMode ?? null} locked={lockedBy('outputMode')} hint="Compact: the output lines. TOON: the full structured result.">
          {() => (
            <Segmented
              name="outputMode"
              label="Result format"
              value={form.draft.outputMode as 'compact' | 'toon'}
              options={OUTPUT_MODES}
              disabled={!!lockedBy('outputMode')}
              onChange={(v) => form.set('outputMode', v)}
            />
          )}
        </Field>
      </fieldset>

      <fieldset className="card group">
        <legend>Throughput</legend>
        <SliderField {...common('concurrency')} label="Runs at once" scale={concurrencyScale} hint="The rest wait in a first-in, first-out queue." />
        <SliderField {...common('queueLimit')} label="Queue limit" scale={queueScale} hint="Runs allowed to wait; one more is refused at once as busy." />
        <SliderField {...common('poolSize')} label="Warm pool" scale={poolScale} hint="Containers always booted ahead of need; 0 (with an empty maximum) turns the pool off." />
        <SliderField {...common('poolMax')} label="Warm pool under load" scale={poolMaxScale} placeholder="auto" hint="The most the pool grows to while calls come at once; it shrinks back when quiet. Empty: 10, or none when the pool is 0." />
      </fieldset>

      <fieldset className="card group">
        <legend>Image</legend>
        <Field id="limit-image" label="Container image" error={form.errors.image ?? null} locked={lockedBy('image')} hint="Any image with python3 3.8+. Never pulled by a run: pull it in Health.">
          {(control) => (
            <>
              <input
                {...control}
                className="input input-wide mono"
                list="known-images"
                spellCheck={false}
                autoComplete="off"
                value={form.draft.image}
                onChange={(e) => form.set('image', e.currentTarget.value)}
              />
              <datalist id="known-images">
                {knownImages.map((i) => (
                  <option key={i} value={i} />
                ))}
              </datalist>
            </>
          )}
        </Field>
      </fieldset>

      <fieldset className="card group">
        <legend>Packages</legend>
        <SliderField
          {...common('packageCacheMB')}
          label="Package cache"
          unit="MB"
          scale={packageCacheScale}
          hint={`Installed layers and wheels kept for runs that ask for packages; the least recently used go first.${packagesRow ? ` Now: ${packagesRow}` : ''}`}
        />
      </fieldset>

      <fieldset className="card group">
        <legend>Egress per run</legend>
        <SliderField {...common('egressMaxConnections')} label="Connections" scale={egressConnectionsScale} hint="Through the egress proxy, in all (at most 32 at once); one more is refused." />
        <SliderField {...common('egressMaxMiB')} label="Data" unit="MiB" scale={egressBytesScale} hint="Sent and received through the egress proxy together; the connection that passes it is ended." />
      </fieldset>
    </div>
  );
}

import type { UsageDay } from "@trove/sdk";

const WIDTH = 600;
const HEIGHT = 120;

/**
 * Requests per day as inline SVG bars (no chart library: the console's bundle stays small). The
 * table beside it carries the numbers for assistive technology; the chart is one image with a
 * summary for a name.
 */
export function UsageChart({ days }: { days: readonly UsageDay[] }) {
  const peak = Math.max(1, ...days.map((day) => day.requests));
  const total = days.reduce((sum, day) => sum + day.requests, 0);
  const slot = WIDTH / Math.max(days.length, 1);
  const first = days[0]?.date ?? "";
  const last = days.at(-1)?.date ?? "";
  return (
    <figure className="usage__chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`Requests per day from ${first} to ${last}: ${total.toLocaleString("en")} in all, at most ${peak.toLocaleString("en")} a day`}
        preserveAspectRatio="none"
      >
        <line className="usage__axis" x1={0} y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} />
        {days.map((day, index) => {
          const height = (day.requests / peak) * (HEIGHT - 4);
          return (
            <rect
              key={day.date}
              className="usage__bar"
              x={index * slot + slot * 0.15}
              y={HEIGHT - height}
              width={slot * 0.7}
              height={height}
            >
              <title>{`${day.date}: ${day.requests} requests`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="muted">
        Requests per day, {first} to {last} (peak {peak.toLocaleString("en")})
      </figcaption>
    </figure>
  );
}

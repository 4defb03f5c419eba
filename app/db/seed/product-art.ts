/**
 * Product pictures drawn locally (no network): a simple SVG composition per kind of product,
 * rendered to WebP by the image pipeline. Three variants give each product its gallery.
 */
export type ArtShape =
  | "phone"
  | "laptop"
  | "headphones"
  | "watch"
  | "chair"
  | "mixer"
  | "camera"
  | "bottle"
  | "shirt"
  | "sneaker"
  | "box";

export interface ProductArt {
  shape: ArtShape;
  hue: number;
}

const SIZE = 960;

export function drawProductSvg({ shape, hue }: ProductArt, variant: number): string {
  const background = `hsl(${(hue + variant * 25) % 360} 45% ${92 - variant * 4}%)`;
  const main = `hsl(${hue} 55% ${30 + variant * 8}%)`;
  const accent = `hsl(${(hue + 40) % 360} 70% 60%)`;
  const angle = [0, -12, 10][variant % 3] ?? 0;
  const scale = [1, 0.85, 1.1][variant % 3] ?? 1;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 800 800">
  <defs><radialGradient id="bg" cx="50%" cy="40%" r="70%"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="${background}"/></radialGradient></defs>
  <rect width="100%" height="100%" fill="url(#bg)"/>
  <ellipse cx="400" cy="690" rx="${220 * scale}" ry="28" fill="rgba(0,0,0,0.12)"/>
  <g transform="translate(400 400) rotate(${angle}) scale(${scale}) translate(-400 -400)">${SHAPES[shape](main, accent)}</g>
</svg>`;
}

const SHAPES: Record<ArtShape, (main: string, accent: string) => string> = {
  phone: (m, a) =>
    `<rect x="290" y="130" width="220" height="440" rx="36" fill="${m}"/><rect x="305" y="160" width="190" height="380" rx="18" fill="${a}"/><circle cx="400" cy="147" r="6" fill="#111"/>`,
  laptop: (m, a) =>
    `<rect x="210" y="200" width="380" height="250" rx="16" fill="${m}"/><rect x="228" y="218" width="344" height="214" rx="6" fill="${a}"/><path d="M160 470h480l-30 40H190z" fill="${m}"/>`,
  headphones: (m, a) =>
    `<path d="M250 420v-60a150 150 0 0 1 300 0v60" stroke="${m}" stroke-width="34" fill="none"/><rect x="215" y="400" width="80" height="150" rx="30" fill="${m}"/><rect x="505" y="400" width="80" height="150" rx="30" fill="${m}"/><rect x="235" y="425" width="40" height="100" rx="16" fill="${a}"/><rect x="525" y="425" width="40" height="100" rx="16" fill="${a}"/>`,
  watch: (m, a) =>
    `<rect x="350" y="120" width="100" height="560" rx="20" fill="${m}"/><circle cx="400" cy="400" r="120" fill="#ddd" stroke="${m}" stroke-width="18"/><circle cx="400" cy="400" r="92" fill="${a}"/><path d="M400 400V330M400 400l50 30" stroke="#111" stroke-width="10" stroke-linecap="round"/>`,
  chair: (m, a) =>
    `<rect x="260" y="170" width="70" height="310" rx="20" fill="${m}" transform="rotate(-10 295 325)"/><rect x="250" y="420" width="320" height="70" rx="18" fill="${a}"/><rect x="270" y="480" width="26" height="170" fill="${m}"/><rect x="520" y="480" width="26" height="170" fill="${m}"/>`,
  mixer: (m, a) =>
    `<path d="M280 560h300v60H280z" fill="${m}"/><path d="M300 200h260a40 40 0 0 1 40 40v60H300z" fill="${m}"/><rect x="300" y="200" width="70" height="360" fill="${m}"/><path d="M420 420h170l-20 140H440z" fill="${a}"/>`,
  camera: (m, a) =>
    `<rect x="230" y="270" width="340" height="230" rx="40" fill="${m}"/><circle cx="400" cy="385" r="80" fill="#222"/><circle cx="400" cy="385" r="46" fill="${a}"/><rect x="375" y="500" width="50" height="110" fill="${m}"/><rect x="300" y="600" width="200" height="30" rx="10" fill="${m}"/>`,
  bottle: (m, a) =>
    `<rect x="330" y="260" width="140" height="340" rx="30" fill="${m}"/><rect x="370" y="190" width="60" height="80" rx="8" fill="${a}"/><rect x="345" y="380" width="110" height="120" rx="10" fill="#fff" opacity="0.85"/><rect x="500" y="400" width="90" height="200" rx="24" fill="${a}"/>`,
  shirt: (m, a) =>
    `<path d="M300 190l-120 70 50 100 60-30v290h220V330l60 30 50-100-120-70c-20 40-60 60-100 60s-80-20-100-60z" fill="${m}"/><path d="M340 190c15 30 35 45 60 45s45-15 60-45" stroke="${a}" stroke-width="14" fill="none"/>`,
  sneaker: (m, a) =>
    `<path d="M170 500c0-60 20-140 60-170l90 40c40 20 90 30 150 40l120 20c40 8 60 40 60 70v30H170z" fill="${m}"/><rect x="160" y="530" width="500" height="40" rx="18" fill="${a}"/><path d="M300 380l40 60M340 370l40 60M380 365l40 60" stroke="${a}" stroke-width="12" stroke-linecap="round"/>`,
  box: (m, a) =>
    `<path d="M250 300l150-80 150 80v220l-150 80-150-80z" fill="${m}"/><path d="M250 300l150 80 150-80" stroke="${a}" stroke-width="14" fill="none"/><path d="M400 380v220" stroke="${a}" stroke-width="14"/>`,
};

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
  | "box"
  | "boardgame"
  | "puzzle"
  | "dumbbell"
  | "helmet"
  | "book"
  | "kit";

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
  boardgame: (m, a) =>
    `<rect x="190" y="230" width="420" height="340" rx="18" fill="${m}"/><rect x="225" y="265" width="350" height="270" rx="8" fill="#fff" opacity="0.9"/><path d="M225 355h350M225 445h350M342 265v270M458 265v270" stroke="${a}" stroke-width="10"/><rect x="505" y="470" width="110" height="110" rx="20" fill="${a}"/><circle cx="535" cy="500" r="11" fill="#fff"/><circle cx="585" cy="550" r="11" fill="#fff"/>`,
  puzzle: (m, a) =>
    `<path d="M250 250h110a45 45 0 1 1 80 0h110v110a45 45 0 1 1 0 80v110H440a45 45 0 1 0-80 0H250V440a45 45 0 1 0 0-80z" fill="${m}"/><path d="M300 300h90v90h-90z" fill="${a}" opacity="0.8"/>`,
  dumbbell: (m, a) =>
    `<rect x="250" y="380" width="300" height="40" rx="14" fill="#888"/><rect x="190" y="300" width="70" height="200" rx="18" fill="${m}"/><rect x="540" y="300" width="70" height="200" rx="18" fill="${m}"/><rect x="150" y="330" width="40" height="140" rx="12" fill="${a}"/><rect x="610" y="330" width="40" height="140" rx="12" fill="${a}"/>`,
  helmet: (m, a) =>
    `<path d="M180 470c0-150 100-250 230-250s230 100 230 250z" fill="${m}"/><path d="M260 300l60 -40M360 250l30 -10M450 245l40 10M540 280l40 40" stroke="${a}" stroke-width="26" stroke-linecap="round"/><rect x="170" y="460" width="480" height="34" rx="16" fill="${a}"/><path d="M300 494l40 100M520 494l-40 100" stroke="#333" stroke-width="10"/>`,
  book: (m, a) =>
    `<rect x="260" y="170" width="300" height="440" rx="12" fill="${m}"/><rect x="240" y="170" width="40" height="440" rx="8" fill="${a}"/><rect x="320" y="250" width="190" height="20" rx="6" fill="#fff" opacity="0.85"/><rect x="320" y="290" width="140" height="14" rx="6" fill="#fff" opacity="0.7"/><path d="M560 190h20v410h-20" fill="#f4f1ea"/>`,
  kit: (m, a) =>
    `<rect x="350" y="220" width="100" height="60" rx="18" fill="none" stroke="${m}" stroke-width="22"/><rect x="210" y="270" width="380" height="300" rx="30" fill="${m}"/><path d="M400 340v160M320 420h160" stroke="${a}" stroke-width="50" stroke-linecap="round"/>`,
};

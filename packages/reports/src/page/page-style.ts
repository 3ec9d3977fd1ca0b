/**
 * The one style sheet of every page Cadence draws: the report (inlined, so that a saved report is
 * one file) and the dashboard (served under assets/ by its content hash). One palette, light and
 * dark. Rules that only one kind of page needs are scoped by the class its <body> carries
 * (`report` or `dashboard`, set by pageShell), so that neither page's look depends on the other's.
 */
export const PAGE_STYLE = `:root{--fg:#1d2330;--muted:#4b5563;--bg:#fff;--line:#d0d5dd;--head:#f2f4f7;--chart:#fafbfd;--bar:#98a2b3;--flag:#c0271c;--infer:#dc6803;--link:#1849a9;
--high-bg:#b42318;--medium-bg:#93370d;--low-bg:#067647;--badge-fg:#fff}
@media (prefers-color-scheme: dark){:root{--fg:#e4e7ec;--muted:#b0b8c4;--bg:#101419;--line:#344054;--head:#1d2530;--chart:#161b22;--bar:#667085;--flag:#f97066;--infer:#fdb022;--link:#84adff;
--high-bg:#d92d20;--medium-bg:#b54708;--low-bg:#087443}}
body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:1180px;color:var(--fg);background:var(--bg);padding:0 1rem}
a{color:var(--link)}.muted{color:var(--muted)}
table{border-collapse:collapse;width:100%;margin:1rem 0}td,th{border-bottom:1px solid var(--line);padding:.35rem .5rem;text-align:left}th{background:var(--head)}
:focus-visible{outline:3px solid var(--link);outline-offset:2px}
[hidden]{display:none!important}
.report h1{font-size:1.5rem;margin-bottom:.2rem;overflow-wrap:anywhere}
.report td,.report th{vertical-align:top}
.verdict{border-left:.5rem solid var(--low-bg);padding:.6rem 1rem;margin:1rem 0;background:var(--head)}
.verdict.medium{border-color:var(--medium-bg)}.verdict.high{border-color:var(--high-bg)}
.score,.sev{display:inline-block;padding:.15rem .6rem;border-radius:4px;font-weight:600;color:var(--badge-fg);white-space:nowrap}
.high{background:var(--high-bg)}.medium{background:var(--medium-bg)}.low{background:var(--low-bg)}
.verdict.high,.verdict.medium,.verdict.low{background:var(--head)}
.score{font-size:1.1rem;padding:.3rem .8rem}
th button{font:inherit;font-weight:600;background:none;border:0;color:inherit;cursor:pointer;padding:0}
td.when,td.num{white-space:nowrap}.report code{font-family:ui-monospace,monospace}.report ul{margin:.2rem 0;padding-left:1.2rem}
#finding-controls{display:flex;flex-wrap:wrap;gap:.8rem;align-items:end;margin:.5rem 0}
#finding-controls label{display:flex;flex-direction:column;font-size:.9rem}
.report select,.report input,.report button.more{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:.2rem .4rem}
mark{background:#fef0c7;color:#1d2330;padding:0 .1rem}
svg{width:100%;height:auto;background:var(--chart);border:1px solid var(--line)}svg text{fill:var(--muted)}
.legend span{display:inline-block;width:.8rem;height:.8rem;margin:0 .3rem 0 1rem;vertical-align:middle}
.dashboard form{display:flex;flex-wrap:wrap;gap:.6rem;align-items:end}.dashboard label{display:flex;flex-direction:column;font-size:.9rem}
.dashboard input,.dashboard select,.dashboard button{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:.3rem .5rem}`;

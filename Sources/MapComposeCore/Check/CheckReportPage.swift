import Foundation

/// The HTML report of a check run: a summary, then every case, the failed ones first and the
/// largest differences first, each with its expected, actual and diff images side by side, a
/// slider (and a blink button) that compares expected and actual in place, and its render
/// report. Images are linked relative to the page (`<case>/actual.png`, …), so the folder can
/// be copied or served as it is.
public enum CheckReportPage {
    public static func html(_ outcomes: [CheckCaseOutcome], suite: String) -> String {
        let sorted = outcomes.sorted { a, b in
            if (a.status == .failed) != (b.status == .failed) { return a.status == .failed }
            if a.differingFraction != b.differingFraction { return a.differingFraction > b.differingFraction }
            return a.name < b.name
        }
        let failed = outcomes.filter { $0.status == .failed }.count
        var page = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <title>mapcompose check: \(failed) of \(outcomes.count) failed</title>
        <style>
        body { font: 14px/1.4 sans-serif; margin: 1.5em; color: #222; }
        h1 { font-size: 20px; } h2 { font-size: 16px; margin: 0 0 .3em; }
        .case { border: 1px solid #ccc; border-left: 8px solid #2a9d48; padding: .8em; margin: 1em 0; }
        .case.failed { border-left-color: #d62828; background: #fff5f5; }
        .case.updated { border-left-color: #e9a400; }
        .status { font-weight: bold; text-transform: uppercase; }
        .failed .status { color: #d62828; } .passed .status { color: #2a9d48; }
        .images { display: flex; gap: 12px; flex-wrap: wrap; align-items: flex-start; }
        figure { margin: 0; } figcaption { font-size: 12px; color: #555; }
        figure img { max-width: 360px; border: 1px solid #ddd; display: block; }
        .compare { position: relative; display: inline-block; max-width: 360px; }
        .compare img { max-width: 360px; display: block; border: 1px solid #ddd; }
        .compare img.top { position: absolute; left: 0; top: 0; clip-path: inset(0 50% 0 0); }
        .compare input { width: 100%; }
        pre { max-height: 16em; overflow: auto; background: #f4f4f4; padding: .5em; font-size: 12px; }
        </style></head><body>
        <h1 id="summary">\(failed == 0 ? "All \(outcomes.count) cases passed" : "\(failed) of \(outcomes.count) cases failed")</h1>
        <p>Suite: <code>\(escape(suite))</code>. Cases are sorted by difference, failures first. Slide over
        the middle picture, or blink it, to compare expected and actual in place.</p>

        """
        for outcome in sorted { page += section(outcome) }
        page += """
        <script>
        document.querySelectorAll('.compare').forEach(function (box) {
          var top = box.querySelector('img.top'), range = box.querySelector('input[type=range]');
          range.addEventListener('input', function () { top.style.clipPath = 'inset(0 ' + (100 - range.value) + '% 0 0)'; });
          var timer = null;
          box.querySelector('button').addEventListener('click', function () {
            if (timer) { clearInterval(timer); timer = null; top.style.visibility = 'visible'; return; }
            timer = setInterval(function () { top.style.visibility = top.style.visibility === 'hidden' ? 'visible' : 'hidden'; }, 500);
          });
        });
        </script>
        </body></html>

        """
        return page
    }

    private static func section(_ outcome: CheckCaseOutcome) -> String {
        let name = escape(outcome.name)
        let folder = escape(outcome.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? outcome.name)
        let figures: String
        if outcome.differingPixels != nil {
            figures = """
            <div class="images">
            <figure><img src="\(folder)/expected.png" alt="expected"><figcaption>expected (\(escape(outcome.expectedName ?? "")))</figcaption></figure>
            <figure><div class="compare"><img src="\(folder)/expected.png" alt="expected under actual"><img class="top" src="\(folder)/actual.png" alt="actual over expected">
            <input type="range" min="0" max="100" value="50" aria-label="actual shown from the left"><button type="button">blink</button></div>
            <figcaption>actual (left of the slider) over expected</figcaption></figure>
            <figure><img src="\(folder)/actual.png" alt="actual"><figcaption>actual</figcaption></figure>
            <figure><img src="\(folder)/diff.png" alt="diff"><figcaption>diff: red differs, yellow anti-aliasing</figcaption></figure>
            </div>
            """
        } else {
            figures = ""
        }
        let percent = outcome.differingPixels.map { _ in String(format: "%.4f%%", outcome.differingFraction * 100) } ?? "—"
        return """
        <section class="case \(outcome.status.rawValue)" id="case-\(name)">
        <h2><span class="status">\(outcome.status.rawValue)</span> \(name) — \(percent) differ</h2>
        <p class="message">\(escape(outcome.message)) (threshold \(outcome.threshold), allowed \(String(format: "%.4f%%", outcome.allowed * 100)))</p>
        \(figures)
        <details><summary>render report</summary><pre>\(escape(outcome.reportJSON ?? "no report: the render did not start"))</pre></details>
        </section>

        """
    }

    /// Text made safe inside HTML elements and attribute values.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

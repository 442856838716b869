import Foundation

/// The server's HTML: the list of styles, and for each a page showing it in a slippy map of
/// its tiles (drag to pan, wheel or buttons to zoom), with no script from elsewhere.
enum ViewerPage {
    static func index(styles: [String]) -> String {
        let items = styles.map { name in
            let escaped = escape(name)
            return "<li><a href=\"/styles/\(escaped)/\">\(escaped)</a> · <a href=\"/styles/\(escaped)/tiles.json\">TileJSON</a>"
                + " · <a href=\"/styles/\(escaped)/static.png?center=51.5,-0.12&amp;zoom=4&amp;size=512x512\">static map</a></li>"
        }.joined(separator: "\n")
        return """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>mapcompose</title>
        <style>body{font:15px system-ui,sans-serif;margin:2em}</style></head>
        <body><h1>mapcompose</h1><p>Styles served:</p><ul>
        \(items)
        </ul><p><a href="/health">health</a> · <a href="/ready">ready</a> · <a href="/metrics">metrics</a></p></body></html>
        """
    }

    static func viewer(style name: String) -> String {
        let escaped = escape(name)
        return """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>\(escaped) · mapcompose</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>
        html,body{margin:0;height:100%;font:14px system-ui,sans-serif}
        #map{position:absolute;inset:0;overflow:hidden;background:#ddd;cursor:grab;touch-action:none}
        #map img{position:absolute;width:256px;height:256px;user-select:none;-webkit-user-drag:none}
        #bar{position:absolute;top:8px;left:8px;z-index:2;background:#fffc;padding:4px 8px;border-radius:4px}
        #bar button{width:28px}
        </style></head>
        <body><div id="map"></div>
        <div id="bar"><b>\(escaped)</b> <button id="in">+</button><button id="out">−</button> <span id="at"></span></div>
        <script>
        (function () {
          var style = \(jsonString(name)), map = document.getElementById('map'), at = document.getElementById('at');
          var retina = window.devicePixelRatio > 1 ? '@2x' : '';
          var view = {z: 2, x: 512, y: 512};   // z and the world pixel at the centre
          var h = location.hash.match(/^#(\\d+)\\/(-?[\\d.]+)\\/(-?[\\d.]+)$/);
          if (h) { view.z = +h[1]; var w = 256 * Math.pow(2, view.z), la = +h[2] * Math.PI / 180;
            view.x = (+h[3] + 180) / 360 * w; view.y = (1 - Math.log(Math.tan(la) + 1 / Math.cos(la)) / Math.PI) / 2 * w; }
          function draw() {
            var n = Math.pow(2, view.z), w = 256 * n, cw = map.clientWidth, ch = map.clientHeight;
            view.y = Math.max(0, Math.min(w, view.y));
            var left = view.x - cw / 2, top = view.y - ch / 2, seen = {};
            for (var ty = Math.floor(top / 256); ty * 256 < top + ch; ty++) {
              if (ty < 0 || ty >= n) continue;
              for (var tx = Math.floor(left / 256); tx * 256 < left + cw; tx++) {
                var wx = ((tx % n) + n) % n, key = view.z + '/' + tx + '/' + ty;
                seen[key] = true;
                var img = map.querySelector('img[data-k="' + key + '"]');
                if (!img) { img = document.createElement('img'); img.dataset.k = key; img.alt = ''; img.dataset.tries = 0;
                  img.onerror = retry;
                  img.src = '/styles/' + encodeURIComponent(style) + '/tiles/' + view.z + '/' + wx + '/' + ty + retina + '.png';
                  map.appendChild(img); }
                img.style.left = Math.round(tx * 256 - left) + 'px'; img.style.top = Math.round(ty * 256 - top) + 'px';
              }
            }
            Array.prototype.slice.call(map.querySelectorAll('img')).forEach(function (img) { if (!seen[img.dataset.k]) map.removeChild(img); });
            var lon = view.x / w * 360 - 180, lat = Math.atan(Math.sinh(Math.PI * (1 - 2 * view.y / w))) * 180 / Math.PI;
            at.textContent = 'z' + view.z + ' ' + lat.toFixed(4) + ', ' + lon.toFixed(4);
            history.replaceState(null, '', '#' + view.z + '/' + lat.toFixed(5) + '/' + lon.toFixed(5));
          }
          function retry() {   // a busy server answers 503: ask again a little later, a few times
            var img = this, tries = +img.dataset.tries + 1, src = img.src.split('?')[0];
            if (tries > 6) return;
            img.dataset.tries = tries;
            setTimeout(function () { img.src = src + '?try=' + tries; }, 500 * tries);
          }
          function zoom(d, px, py) {
            var nz = Math.max(0, Math.min(\(TileAddress.maxZoom), view.z + d)); if (nz === view.z) return;
            var f = Math.pow(2, nz - view.z), cx = map.clientWidth / 2, cy = map.clientHeight / 2;
            px = px === undefined ? cx : px; py = py === undefined ? cy : py;
            view.x = (view.x + px - cx) * f - (px - cx); view.y = (view.y + py - cy) * f - (py - cy); view.z = nz; draw();
          }
          var drag = null;
          map.addEventListener('pointerdown', function (e) { drag = {x: e.clientX, y: e.clientY}; map.setPointerCapture(e.pointerId); });
          map.addEventListener('pointermove', function (e) { if (!drag) return;
            view.x -= e.clientX - drag.x; view.y -= e.clientY - drag.y; drag = {x: e.clientX, y: e.clientY}; draw(); });
          map.addEventListener('pointerup', function () { drag = null; });
          map.addEventListener('wheel', function (e) { e.preventDefault(); zoom(e.deltaY < 0 ? 1 : -1, e.offsetX, e.offsetY); }, {passive: false});
          map.addEventListener('dblclick', function (e) { zoom(1, e.offsetX, e.offsetY); });
          document.getElementById('in').onclick = function () { zoom(1); };
          document.getElementById('out').onclick = function () { zoom(-1); };
          window.addEventListener('resize', draw);
          draw();
        })();
        </script></body></html>
        """
    }

    /// Text safe inside HTML elements and attributes.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    /// A JSON string literal, safe inside a script element.
    static func jsonString(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [])) ?? Data("[\"\"]".utf8)
        let array = String(decoding: data, as: UTF8.self)
        return String(array.dropFirst().dropLast()).replacingOccurrences(of: "<", with: "\\u003c")
    }
}

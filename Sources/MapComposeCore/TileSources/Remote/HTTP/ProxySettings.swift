import Foundation

/// The proxies the environment names: `HTTP_PROXY` for http URLs, `HTTPS_PROXY` for https
/// URLs (lower-case names too), and `NO_PROXY` hosts (suffixes, `*` for all) reached directly.
public struct ProxySettings: Sendable, Equatable {
    /// Host and port of a proxy server.
    public struct Server: Sendable, Hashable {
        public var host: String
        public var port: Int
    }

    public var http: Server?
    public var https: Server?
    public var noProxy: [String]

    public init(http: Server? = nil, https: Server? = nil, noProxy: [String] = []) {
        self.http = http
        self.https = https
        self.noProxy = noProxy
    }

    /// Reads the variables from `environment`.
    public init(environment: [String: String]) {
        func value(_ name: String) -> String? {
            (environment[name] ?? environment[name.lowercased()]).flatMap { $0.isEmpty ? nil : $0 }
        }
        http = value("HTTP_PROXY").flatMap(Self.server)
        https = value("HTTPS_PROXY").flatMap(Self.server)
        noProxy = (value("NO_PROXY") ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// `http://host:port`, `host:port` or `host` (port 80, or 443 for an https proxy URL).
    static func server(_ text: String) -> Server? {
        let withScheme = text.contains("://") ? text : "http://\(text)"
        guard let components = URLComponents(string: withScheme), let host = components.host, !host.isEmpty else { return nil }
        let port = components.port ?? (components.scheme == "https" ? 443 : 80)
        return Server(host: host, port: port)
    }

    /// The proxy for `url`, or nil to connect directly.
    public func proxy(for url: URL) -> Server? {
        guard let host = url.host?.lowercased() else { return nil }
        for pattern in noProxy {
            if pattern == "*" { return nil }
            let suffix = pattern.hasPrefix(".") ? String(pattern.dropFirst()) : pattern
            let bare = suffix.split(separator: ":").first.map(String.init) ?? suffix
            if host == bare || host.hasSuffix(".\(bare)") { return nil }
        }
        return url.scheme?.lowercased() == "https" ? https : http
    }
}

import Foundation

/// Which redirects a request follows and with which headers: at most `maxRedirects`, http and
/// https only, never in a cycle. A redirect to another origin (scheme, host or port) drops
/// `Authorization` and every header whose value came from the environment (`${NAME}`: the
/// style's secrets), as browsers and curl do with credentials; an https → http downgrade is
/// another origin too, so secrets never travel in clear.
struct RedirectPolicy {
    static let maxRedirects = 5

    /// A request header and whether its value is a secret.
    struct Header {
        let name: String
        let value: String
        let isSecret: Bool
    }

    /// Where the redirect of `answer` (to the request for `url`) leads, with the headers to
    /// send there; nil when the answer is no redirect. Throws when it may not be followed.
    static func follow(_ answer: HTTPAnswer, from url: URL, headers: [Header],
                       visited: [URL]) throws(HTTPFailure) -> (url: URL, headers: [Header])? {
        guard [301, 302, 303, 307, 308].contains(answer.status), let location = answer.headers["location"] else { return nil }
        guard visited.count <= maxRedirects else { throw .connection("more than \(maxRedirects) redirects") }
        guard let next = URL(string: location, relativeTo: url)?.absoluteURL,
              let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https", next.host != nil else {
            throw .connection("redirect to an unusable location")
        }
        guard !visited.contains(next) else { throw .connection("redirect cycle") }
        guard !sameOrigin(url, next) else { return (next, headers) }
        return (next, headers.filter { !$0.isSecret && $0.name.lowercased() != "authorization" })
    }

    /// Scheme, host and port (defaults filled in) all equal.
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int) {
            let scheme = url.scheme?.lowercased() ?? ""
            return (scheme, url.host?.lowercased() ?? "", url.port ?? (scheme == "https" ? 443 : 80))
        }
        return origin(a) == origin(b)
    }
}

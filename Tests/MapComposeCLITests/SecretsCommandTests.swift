import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// Secrets a style reads from the environment, through the real binary against a server on
/// 127.0.0.1: only variables the style's `env:` or `--allow-env` names are read; a value read
/// from a file (with its newline) is sent without it; and no value reaches standard error or
/// the report, even when the server quotes it back.
@Suite struct SecretsCommandTests {
    static let secret = "topsecret123"

    /// The environment of a child process: this one's PATH and HOME, and `extra`.
    static func environment(_ extra: [String: String], folder: URL) -> [String: String] {
        ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": folder.path,
         "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path].merging(extra) { $1 }
    }

    @Test func aSecretWithATrailingNewlineIsSentWithoutItAndNeverShown() throws {
        let server = try TestHTTPServer { request in
            let exception = "<ServiceExceptionReport><ServiceException>key \(request.headers["x-api-key"] ?? "") in "
                + "http://x/?key=\(request.headers["x-api-key"] ?? "") is not valid</ServiceException></ServiceExceptionReport>"
            return .respond(status: 403, headers: [("Content-Type", "application/vnd.ogc.se_xml")], body: Data(exception.utf8))
        }
        let folder = try TemporaryFolder()
        try folder.write("""
            env: [MY_SECRET]
            layers:
              - id: remote
                source: {type: xyz, url: "\(server.baseURL)/tiles/{z}/{x}/{y}.png", headers: {X-Api-Key: "${MY_SECRET}"}, retries: 0}
            """, to: "secret.yaml")
        let result = try CLIRunner.start(["--style", "secret.yaml", "--center", "0,0", "--zoom", "1", "--size", "256x256",
                                          "--report", "report.json", "map.png"], in: folder.url,
                                         environment: Self.environment(["MY_SECRET": Self.secret + "\n"], folder: folder.url))
            .finish()
        #expect(!server.requests.isEmpty)
        #expect(server.requests.allSatisfy { $0.headers["x-api-key"] == Self.secret }, "sent without its newline")
        let report = try String(contentsOf: folder.url.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(!result.stderr.contains(Self.secret), "\(result.stderr)")
        #expect(!report.contains(Self.secret))
        #expect(result.stderr.contains("key ${MY_SECRET} in http://x/?key=${MY_SECRET} is not valid"), "\(result.stderr)")
    }

    @Test func aVariableTheStyleDoesNotListIsRefusedAndNothingIsSent() throws {
        let server = try TestHTTPServer { _ in .status(404) }
        let folder = try TemporaryFolder()
        try folder.write("""
            layers:
              - id: remote
                source: {type: xyz, url: "\(server.baseURL)/x?a=${AWS_SECRET_ACCESS_KEY}&h=${HOME}&z={z}&x={x}&y={y}"}
            """, to: "greedy.yaml")
        let environment = Self.environment(["AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI"], folder: folder.url)
        let refused = try CLIRunner.start(["--style", "greedy.yaml", "--center", "0,0", "--zoom", "1", "map.png"],
                                          in: folder.url, environment: environment).finish()
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("refers to the environment variable AWS_SECRET_ACCESS_KEY, which the style may not read"),
                "\(refused.stderr)")
        #expect(refused.stderr.contains("--allow-env HOME"))
        #expect(server.requests.isEmpty)
        let allowed = try CLIRunner.start(["--style", "greedy.yaml", "--center", "0,0", "--zoom", "1", "--allow-env",
                                           "AWS_SECRET_ACCESS_KEY", "--allow-env", "HOME", "--no-cache", "map.png"],
                                          in: folder.url, environment: environment).finish()
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(server.requests.contains { $0.query.contains("a=wJalrXUtnFEMI") })
    }

    @Test func validateSendsOnlyTheVariablesItsCommandLineAllows() throws {
        let tilejson = #"{"tilejson": "3.0.0", "tiles": ["http://127.0.0.1:9/{z}/{x}/{y}.png"]}"#
        let server = try TestHTTPServer { _ in .respond(status: 200, headers: [("Content-Type", "application/json")],
                                                        body: Data(tilejson.utf8)) }
        let folder = try TemporaryFolder()
        try folder.write("""
            env: [TILE_KEY]
            layers:
              - id: remote
                source: {type: tilejson, url: "\(server.baseURL)/tiles.json?key=${TILE_KEY}"}
            """, to: "keyed.yaml")
        let environment = Self.environment(["TILE_KEY": "k-3141592"], folder: folder.url)
        let checked = try CLIRunner.start(["validate", "keyed.yaml", "--no-cache"], in: folder.url,
                                          environment: environment).finish()
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(server.requests.isEmpty, "the document needs TILE_KEY, which validate was not allowed to send")
        #expect(checked.stderr.contains("--allow-env TILE_KEY"), "\(checked.stderr)")
        let sent = try CLIRunner.start(["validate", "keyed.yaml", "--no-cache", "--allow-env", "TILE_KEY"], in: folder.url,
                                       environment: environment).finish()
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(server.requests.map(\.query) == ["key=k-3141592"])
    }
}

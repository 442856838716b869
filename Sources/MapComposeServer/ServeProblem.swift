import Foundation
import HTTPTypes

/// A request the server refuses: a status, a message and the parameter at fault, answered as
/// `{"error": "...", "parameter": "..."}` (503s also carry Retry-After).
struct ServeProblem: Error, Sendable {
    let status: HTTPResponse.Status
    let message: String
    let parameter: String?
    var retryAfter: Int? = nil

    init(_ status: HTTPResponse.Status, _ message: String, parameter: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.parameter = parameter
        self.retryAfter = retryAfter
    }

    static func notFound(_ what: String = "no such resource") -> ServeProblem { ServeProblem(.notFound, what) }

    static func badParameter(_ message: String, _ parameter: String) -> ServeProblem {
        ServeProblem(.badRequest, message, parameter: parameter)
    }

    /// The JSON body.
    var body: Data {
        var object: [String: String] = ["error": message]
        if let parameter { object["parameter"] = parameter }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(object)) ?? Data("{\"error\":\"internal\"}".utf8)
    }
}

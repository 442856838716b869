import CCurl
import Foundation

/// One HTTP GET on a libcurl easy handle, which it owns: the request's options, and the status,
/// headers and body collected as the answer arrives. Redirects are not followed here (the
/// client decides what may follow one, see `RedirectPolicy`). Run by `CurlTransfers`; read only
/// once it has finished.
final class CurlTransfer: @unchecked Sendable {
    /// How the transfer ended.
    enum Outcome: Sendable {
        /// The whole answer arrived.
        case completed
        /// libcurl's failure: its code, its message and the system's errno (0 when none).
        case failed(code: Int, message: String, systemError: Int32)
        /// The body grew past the limit.
        case tooLarge
        /// Cancelled before it ended.
        case cancelled
    }

    let easy: UnsafeMutableRawPointer
    let url: String
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    /// Largest body accepted.
    let limit: Int
    /// Written by libcurl's callbacks on the transfers' thread while the transfer runs.
    private(set) var body = Data()
    private(set) var headers: [String: String] = [:]
    private(set) var exceededLimit = false
    /// Set and read on the transfers' thread only.
    var cancelled = false
    var completion: (@Sendable (Outcome) -> Void)?

    /// A GET of `url` (http or https) with `headers` (names and values already checked for
    /// line breaks), through `proxy` when given, within `timeout` seconds; nil when libcurl
    /// cannot make a handle. Only once `CurlTransfers.shared` loaded libcurl.
    init?(url: String, headers: [(name: String, value: String)], proxy: ProxySettings.Server?, timeout: Double,
          limit: Int) {
        guard let easy = mc_curl_easy_init() else { return nil }
        self.easy = easy
        self.url = url
        self.limit = limit
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        for (name, value) in headers {
            // "Name;" sends a header with an empty value ("Name:" would remove it).
            let line = value.isEmpty ? "\(name);" : "\(name): \(value)"
            headerList = mc_curl_slist_append(headerList, line)
        }
        let milliseconds = Int(min(max(timeout, 0.001), 86_400) * 1000)
        let context = Unmanaged.passUnretained(self).toOpaque()
        mc_curl_set_string(easy, CURLOPT_URL, url)
        mc_curl_set_long(easy, CURLOPT_HTTPGET, 1)
        mc_curl_set_long(easy, CURLOPT_NOSIGNAL, 1)
        mc_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        mc_curl_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        mc_curl_set_long(easy, CURLOPT_TIMEOUT_MS, milliseconds)
        mc_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, min(milliseconds, 10_000))
        // An empty proxy turns off libcurl's own reading of the proxy variables: the client
        // chose the route (`ProxySettings`).
        mc_curl_set_string(easy, CURLOPT_PROXY, proxy.map { "http://\($0.host):\($0.port)" } ?? "")
        // Through a proxy, every request is tunnelled (CONNECT), http as https.
        mc_curl_set_long(easy, CURLOPT_HTTPPROXYTUNNEL, 1)
        mc_curl_set_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        mc_curl_set_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
        mc_curl_set_headers(easy, headerList)
        mc_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        mc_curl_set_write_callback(easy, curlTransferBody)
        mc_curl_set_pointer(easy, CURLOPT_WRITEDATA, context)
        mc_curl_set_header_callback(easy, curlTransferHeader)
        mc_curl_set_pointer(easy, CURLOPT_HEADERDATA, context)
    }

    deinit {
        mc_curl_easy_cleanup(easy)
        mc_curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// The answer's status (0 before one arrived).
    var status: Int { mc_curl_response_code(easy) }

    /// The outcome for libcurl's result `code`.
    func outcome(for code: CURLcode) -> Outcome {
        if code == CURLE_OK { return .completed }
        if exceededLimit || code == CURLE_FILESIZE_EXCEEDED { return .tooLarge }
        let detail = String(cString: errorBuffer)
        let message = detail.isEmpty ? String(cString: mc_curl_easy_strerror(code)) : detail
        return .failed(code: Int(code.rawValue), message: message, systemError: Int32(mc_curl_os_errno(easy)))
    }

    fileprivate func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= limit else {
            exceededLimit = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// One header line; a status line starts the headers of a new answer (after a 100 Continue).
    fileprivate func header(_ line: String) {
        if line.hasPrefix("HTTP/") {
            headers = [:]
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { return }
        headers[name] = headers[name].map { "\($0), \(value)" } ?? value
    }
}

/// libcurl's body callback: appends to the transfer, or stops it past its limit.
private let curlTransferBody: mc_curl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return transfer.append(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// libcurl's header callback: one line at a time, with its line break.
private let curlTransferHeader: mc_curl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    transfer.header(String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self))
    return length
}

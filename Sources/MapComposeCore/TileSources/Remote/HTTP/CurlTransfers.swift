import CCurl
import Foundation

/// Runs `CurlTransfer`s on one libcurl multi handle, driven by a thread of its own: transfers
/// share its connections (keep-alive, per host and proxy) and its DNS cache, and no thread of
/// Swift's concurrency pool ever blocks on the network. The thread is started with the first
/// transfer and waits in `curl_multi_poll` while there is nothing to do.
final class CurlTransfers: @unchecked Sendable {
    /// The process's transfers.
    static let shared = CurlTransfers()

    /// Nil when libcurl cannot be loaded; `loadFailure` says why.
    private let multi: UnsafeMutableRawPointer?
    /// Why libcurl cannot be used, or nil when it can (loaded with the first transfer).
    let loadFailure: String?
    private let lock = NSLock()
    private var added: [CurlTransfer] = []
    private var cancelledTransfers: [CurlTransfer] = []
    private var started = false
    /// Transfers in the multi handle, by easy handle: the driving thread's alone.
    private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    private init() {
        var message = [CChar](repeating: 0, count: 512)
        if mc_curl_load(&message, message.count) == 0 {
            multi = mc_curl_multi_init()
            loadFailure = multi == nil ? "libcurl could not make a transfer pool" : nil
        } else {
            multi = nil
            loadFailure = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// The failure of every transfer when libcurl cannot be loaded, else nil.
    private var unavailable: CurlTransfer.Outcome? {
        loadFailure.map { .failed(code: -1, message: $0, systemError: 0) }
    }

    /// Runs `transfer` to its end; cancelling the task stops it.
    func perform(_ transfer: CurlTransfer) async -> CurlTransfer.Outcome {
        if let unavailable { return unavailable }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.completion = { continuation.resume(returning: $0) }
                add(transfer)
            }
        } onCancel: {
            cancel(transfer)
        }
    }

    /// `perform` for a caller outside Swift concurrency: blocks the calling thread.
    func performBlocking(_ transfer: CurlTransfer) -> CurlTransfer.Outcome {
        if let unavailable { return unavailable }
        let done = DispatchSemaphore(value: 0)
        let result = OutcomeBox()
        transfer.completion = { outcome in
            result.outcome = outcome
            done.signal()
        }
        add(transfer)
        done.wait()
        return result.outcome ?? .cancelled
    }

    private final class OutcomeBox: @unchecked Sendable {
        var outcome: CurlTransfer.Outcome?
    }

    private func add(_ transfer: CurlTransfer) {
        let startThread = lock.withLock {
            added.append(transfer)
            defer { started = true }
            return !started
        }
        if startThread {
            let thread = Thread { [self] in drive() }
            thread.name = "mapcompose.http"
            thread.start()
        } else if let multi {
            mc_curl_multi_wakeup(multi)
        }
    }

    private func cancel(_ transfer: CurlTransfer) {
        lock.withLock { cancelledTransfers.append(transfer) }
        if let multi { mc_curl_multi_wakeup(multi) }
    }

    /// The thread's loop: takes new and cancelled transfers, lets libcurl work, finishes what
    /// ended, and waits for sockets or a wake-up.
    private func drive() {
        guard let multi else { return }
        while true {
            let (new, cancelled) = lock.withLock {
                defer { added = []; cancelledTransfers = [] }
                return (added, cancelledTransfers)
            }
            for transfer in new {
                if transfer.cancelled {
                    finish(transfer, .cancelled)
                } else if mc_curl_multi_add_handle(multi, transfer.easy) == CURLM_OK {
                    running[transfer.easy] = transfer
                } else {
                    finish(transfer, .failed(code: -1, message: "libcurl could not start the request", systemError: 0))
                }
            }
            for transfer in cancelled {
                if running.removeValue(forKey: transfer.easy) != nil {
                    mc_curl_multi_remove_handle(multi, transfer.easy)
                    finish(transfer, .cancelled)
                } else {
                    // Not added yet (or already finished: then nothing waits on it any more).
                    transfer.cancelled = true
                }
            }
            var active: Int32 = 0
            mc_curl_multi_perform(multi, &active)
            var left: Int32 = 0
            while let message = mc_curl_multi_info_read(multi, &left) {
                var easy: UnsafeMutableRawPointer?
                var code = CURLE_OK
                guard mc_curl_message_done(message, &easy, &code) != 0, let easy,
                      let transfer = running.removeValue(forKey: easy) else { continue }
                mc_curl_multi_remove_handle(multi, easy)
                finish(transfer, transfer.outcome(for: code))
            }
            mc_curl_multi_poll(multi, 1000)
        }
    }

    private func finish(_ transfer: CurlTransfer, _ outcome: CurlTransfer.Outcome) {
        let completion = transfer.completion
        transfer.completion = nil
        completion?(outcome)
    }
}

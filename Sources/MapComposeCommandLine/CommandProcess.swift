import ArgumentParser
import Foundation
import Logging
import MapComposeCore

/// How the `mapcompose` programs (the tool and its server, `mapcompose-serve`) run a command:
/// on the thread pool, ending the process when it is done (`finish`, or `exit` with the code of
/// a failure), while the main thread waits for signals.
public enum CommandProcess {
    /// Runs `command` (which ends the process) as a task while the main thread takes the
    /// signals, after doing `meanwhile` (work the command will want done, started once the
    /// task's thread is running). Synchronous on purpose: with an `async` main the main thread
    /// would leave through `dispatch_main`, which ends it with `pthread_exit`, unwinding its stack.
    public static func run(meanwhile: (() -> Void)? = nil, _ command: @escaping @Sendable () async -> Never) -> Never {
        // The thread pool's threads block every signal, and a process started from one of them
        // (by a test, say) starts with its signals blocked: the main thread takes them all, so
        // SIGINT and SIGTERM reach `PendingFileRegistry`'s handler (`dispatch_main` did the same).
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        pthread_sigmask(SIG_SETMASK, &noSignals, nil)
        let started = TaskStart()
        Task.detached {
            started.signal()
            await command()
        }
        if let meanwhile {
            // Once the task's thread runs: a thread being started while `meanwhile` loads a
            // library waits until the loader is done (see `TextWarmUp`).
            started.wait()
            meanwhile()
        }
        // A signal's handler ends the process (see `PendingFileRegistry`); `pause` returns only
        // after a handler that returns.
        while true { pause() }
    }

    /// Logging and signals, once per process, before a command runs.
    public static func prepare(verbose: Bool) {
        // swift-log: standard error, level info with `--verbose`, else warning; control
        // characters escaped.
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = verbose ? .info : .warning
            return EscapingLogHandler(wrapped: handler)
        }
        // Temporary output files are removed on SIGINT/SIGTERM/SIGHUP (exit 130/143/129);
        // a closed pipe on standard output becomes a write error instead of a silent death.
        PendingFileRegistry.removeOnTermination()
        signal(SIGPIPE, SIG_IGN)
    }

    /// Sets logging and signals up (see `prepare`), runs `command`, async or not, and ends the
    /// process with exit code 0 (see `finish`); what the command throws is the caller's to report.
    public static func execute(_ command: any ParsableCommand, verbose: Bool) async throws -> Never {
        prepare(verbose: verbose)
        if var asyncCommand = command as? any AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            var command = command
            try command.run()
        }
        finish()
    }

    /// Ends the process after a command that succeeded, with exit code 0: what it wrote is in
    /// place by then, standard output and error are flushed, and a temporary file still pending
    /// would be removed, as `exit` does; but no other exit handler runs. Those are the
    /// libraries' finalizers (Pango, GLib, fontconfig, Cairo, Foundation, the dynamic loader's
    /// own), which free and unmap memory the kernel is about to take back whole, and every
    /// unmapping in a process with threads on other cores waits for those cores to flush their
    /// TLBs (docs/performance.md, "What shapes these figures").
    public static func finish() -> Never {
        PendingFileRegistry.removePending()
        fflush(nil)
        _exit(0)
    }

    /// Reports `error`, thrown while `Command` was parsed or ran, and ends the process: a
    /// `CLIFailure` as its `error:` lines and exit code, ArgumentParser's own errors (help and
    /// version included) as ArgumentParser words and codes them.
    public static func exit<Command: ParsableCommand>(reporting error: any Error, of _: Command.Type) -> Never {
        if let failure = error as? CLIFailure {
            for message in failure.messages { printError("error: \(message)") }
            Foundation.exit(failure.exitCode)
        }
        let code = Command.exitCode(for: error)
        let message = Command.fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { print(TerminalText.escaped(message, keepingNewlines: true)) }
            Foundation.exit(0)
        }
        // ArgumentParser's own messages start "Error:"; every other of ours "error:".
        printError(message.hasPrefix("Error: ") ? "error: " + message.dropFirst(7) : message, keepingNewlines: true)
        Foundation.exit(2)
    }
}

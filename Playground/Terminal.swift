#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

// The terminal, put into the state a full-screen player needs and given back exactly as found:
// on a normal exit, on `exit()` (atexit), on Ctrl-C and SIGTERM (a graceful quit: the player's
// loop sees the request and cleans up; a second signal restores and exits at once), and on a
// crash (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE: restore, then die with the signal).
//
// Signal handlers may only call async-signal-safe functions: `write`, `tcsetattr`, `signal`,
// `raise`, `_exit`. So everything they need is prepared before they are installed: the
// restore sequence is a static byte array and the saved `termios` a plain global.

/// The signal that asked the player to quit (SIGINT, SIGTERM), or 0.
let quitSignal = Atomic<Int32>(0)

/// The terminal settings found at start, restored on the way out. Written once, before any
/// handler is installed; afterwards only read (by the handlers and `Terminal.restore`).
nonisolated(unsafe) private var savedSettings = termios()
/// Whether `savedSettings` holds settings to restore (stdin is a terminal we changed).
private let settingsSaved = Atomic<Bool>(false)
/// Whether the screen is in the player's state (alternate screen, hidden cursor).
private let screenTaken = Atomic<Bool>(false)

/// Show the cursor, leave the alternate screen, reset colours.
private let restoreSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

enum Terminal {
    /// Whether stdout is a terminal.
    static var isInteractive: Bool { isatty(STDOUT_FILENO) != 0 }

    /// The terminal's size in characters, or nil when stdout is not a terminal.
    static func size() -> (columns: Int, rows: Int)? {
        var ws = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return nil }
        return (Int(ws.ws_col), Int(ws.ws_row))
    }

    /// Takes the screen: alternate screen, hidden cursor, and (when stdin is a terminal) keys
    /// delivered one at a time without echo; Ctrl-C still raises SIGINT. Installs the handlers
    /// that give everything back.
    static func take() {
        if isatty(STDIN_FILENO) != 0, tcgetattr(STDIN_FILENO, &savedSettings) == 0 {
            var raw = savedSettings
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 0   // read() returns at once, with or without a key
                cc[Int(VTIME)] = 0
            }
            settingsSaved.store(true, ordering: .sequentiallyConsistent)
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        }
        screenTaken.store(true, ordering: .sequentiallyConsistent)
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J\u{1B}[H")
        atexit { Terminal.restore() }
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { sig in
                if quitSignal.exchange(sig, ordering: .sequentiallyConsistent) != 0 {
                    // A second request while the first is pending: the loop is stuck; leave now.
                    Terminal.restore()
                    _exit(128 + sig)
                }
            }
        }
        for sig in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            signal(sig) { sig in
                Terminal.restore()
                signal(sig, SIG_DFL)
                raise(sig)
            }
        }
    }

    /// Gives the terminal back as it was found; safe to call more than once and from a signal
    /// handler (it only calls `tcsetattr` and `write`).
    static func restore() {
        if settingsSaved.exchange(false, ordering: .sequentiallyConsistent) {
            tcsetattr(STDIN_FILENO, TCSANOW, &savedSettings)
        }
        if screenTaken.exchange(false, ordering: .sequentiallyConsistent) {
            restoreSequence.withUnsafeBytes { bytes in
                _ = writeAll(bytes)
            }
        }
    }

    /// The keys pressed since the last call (empty when none, or when stdin is no terminal).
    static func readKeys() -> [UInt8] {
        guard settingsSaved.load(ordering: .sequentiallyConsistent) else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer[..<count]) : []
    }

    /// Writes `text` to stdout in full (retrying short writes).
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = writeAll(UnsafeRawBufferPointer(bytes))
        }
    }

}

/// Writes all of `bytes` to stdout, retrying short and interrupted writes; false on an error.
/// Async-signal-safe.
private func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var offset = 0
    while offset < bytes.count {
        let n = write(STDOUT_FILENO, base + offset, bytes.count - offset)
        if n < 0 {
            if errno == EINTR { continue }
            return false
        }
        offset += n
    }
    return true
}

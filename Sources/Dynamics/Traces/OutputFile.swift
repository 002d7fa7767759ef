import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be written: its path and the operating system's reason.
package struct OutputFileError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The file.
    package var path: String
    /// The reason, e.g. `No space left on device` or `a directory, not a regular file`.
    package var cause: String
    /// The `errno` behind it, or 0 when the file was refused by kind.
    package var code: Int32

    package init(path: String, cause: String, code: Int32 = 0) {
        self.path = path
        self.cause = cause
        self.code = code
    }

    /// `cannot write rain.csv: No space left on device` (control characters in the path escaped).
    package var description: String { "cannot write \(TerminalText.escaped(path)): \(cause)" }
    package var errorDescription: String? { description }

    static func system(_ path: String, _ code: Int32) -> OutputFileError {
        OutputFileError(path: path, cause: String(cString: strerror(code)), code: code)
    }
}

/// A file the programs and ``CSVFrameWriter`` write: one way for every output, so that none of
/// them can lose data quietly or replace what is at the path.
///
/// - The path is opened in place, as a shell's `>` opens it: a symbolic link is written through,
///   an existing file is truncated (or, with `append`, added to), never replaced by a new file,
///   so its owner, mode and links stay.
/// - Only a regular file is written. A directory, a device, a FIFO or a socket at the path (or
///   at the end of a link) is refused with ``OutputFileError``: a device is not a file, and a
///   FIFO would block.
/// - Every write is checked: a full disk, a file-size limit (`ulimit -f`, with `SIGXFSZ`
///   ignored, as the programs do) or an I/O error throws ``OutputFileError`` naming the file and
///   the cause. So does `close()`, where some file systems first report a failed write.
package final class OutputFile {
    /// The path as given.
    package let path: String
    private var descriptor: Int32

    /// Opens `path` for writing, creating it (mode 0666 less the umask) if it does not exist.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - append: Add to the end of an existing file instead of truncating it. Default `false`.
    /// - Throws: ``OutputFileError`` when the path is not a regular file or cannot be opened.
    package init(path: String, append: Bool = false) throws(OutputFileError) {
        self.path = path
        try Self.checkKind(path)
        // O_NONBLOCK: a FIFO put there since the check must not hang the open; it is refused below.
        var flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK
        if append { flags |= O_APPEND }
        let fd = open(path, flags, 0o666)
        guard fd >= 0 else { throw .system(path, errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            _ = systemClose(fd)
            throw .system(path, code)
        }
        guard Self.isRegular(info) else {
            _ = systemClose(fd)
            throw OutputFileError(path: path, cause: Self.kindName(info) + ", not a regular file; not written")
        }
        if !append && ftruncate(fd, 0) != 0 {
            let code = errno
            _ = systemClose(fd)
            throw .system(path, code)
        }
        descriptor = fd
    }

    /// Wraps a descriptor already open for writing, unchecked: for tests that write to
    /// `/dev/full` to see an error surface.
    init(descriptor: Int32, path: String) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { _ = systemClose(descriptor) }
    }

    /// Throws unless `path` is absent or (through links) a regular file.
    package static func checkKind(_ path: String) throws(OutputFileError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard isRegular(info) else {
                throw OutputFileError(path: path, cause: kindName(info) + ", not a regular file; not written")
            }
        } else if errno != ENOENT {
            throw .system(path, errno)
        }
    }

    static func isRegular(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFREG }

    /// `a directory`, `a character device` …
    static func kindName(_ info: stat) -> String {
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFREG: return "a regular file"
        default: return "not a file"
        }
    }

    /// Writes all of `bytes`, retrying short and interrupted writes.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFileError) {
        guard descriptor >= 0 else { throw OutputFileError(path: path, cause: "the file is closed", code: EBADF) }
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = systemWrite(descriptor, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(path, errno)
            }
            if n == 0 { throw OutputFileError(path: path, cause: "nothing could be written", code: EIO) }
            offset += n
        }
    }

    /// Writes all of `bytes`.
    package func write(_ bytes: [UInt8]) throws(OutputFileError) {
        var result: Result<Void, OutputFileError> = .success(())
        bytes.withUnsafeBytes { raw in
            do throws(OutputFileError) { try write(raw) } catch { result = .failure(error) }
        }
        try result.get()
    }

    /// Writes `text` as UTF-8.
    package func write(_ text: String) throws(OutputFileError) {
        try write(Array(text.utf8))
    }

    /// Closes the file; a second call does nothing.
    ///
    /// - Throws: ``OutputFileError`` when the system reports an error on closing (a write that
    ///   failed late, on some network file systems).
    package func close() throws(OutputFileError) {
        guard descriptor >= 0 else { return }
        let fd = descriptor
        descriptor = -1
        if systemClose(fd) != 0 && errno != EINTR { throw .system(path, errno) }
    }

    /// Writes `text` to `path` in one go: opened as ``init(path:append:)`` opens it, written, closed.
    package static func write(_ text: String, to path: String) throws(OutputFileError) {
        let file = try OutputFile(path: path)
        try file.write(text)
        try file.close()
    }
}

// `write` and `close` are also methods of this type; these name the system calls.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

private func systemClose(_ fd: Int32) -> Int32 {
    close(fd)
}

import Foundation

/// Writes frame reports as CSV: one row per item per frame.
///
/// The text follows RFC 4180. It starts with the header
///
///     frame,time,item,x,y,angle,vx,vy,angular_velocity,resting
///
/// and every line, the header's included, ends with CRLF (`"\r\n"`), as RFC 4180 specifies.
/// The columns:
/// - `frame`: `FrameReport.index`.
/// - `time`: `FrameReport.time`, in seconds.
/// - `item`: the item's name when it has one, else its 0-based position in `FrameReport.items`.
///   A field that contains a comma, a double quote, CR or LF is quoted, its quotes doubled.
///   (A name made of digits reads like a position: name items `"ball 3"` rather than `"3"`.)
/// - `x`, `y`: the center, in points. `angle`: radians. `vx`, `vy`: points per second.
///   `angular_velocity`: radians per second.
/// - `resting`: `true` or `false`.
///
/// Numbers are written with Swift's shortest round-trip form (`Double.description`: `0.1`,
/// `1e-05`, `-0.0`, `1e+300`), so `Double(field)` reads back the identical bits. Non-finite
/// values are written `nan`, `inf` and `-inf`, which `Double(_:)` also reads.
///
/// There are two modes:
/// - `init()` keeps everything in memory; read it from `text`.
/// - `init(path:)` streams rows to a file through a 64 KiB buffer, so a run of any length
///   costs constant memory; `flush()` hands the buffer to the file, `close()` flushes and closes.
///
/// **Traces.** The rows hold poses only. To make a trace that can be watched again
/// (`playground replay`, ``TraceReader``), let the writer ``record(_:)`` the animator: besides
/// the rows it then writes a *scene file* — the items' shapes and sizes, the reference bounds,
/// the boundaries, attachments and snap points — once, and later only what changes (an item
/// joins, an anchor moves). In file mode the scene file lies beside the CSV at
/// ``TraceScene/scenePath(forTrace:)`` (`rain.csv` → `rain.scene.jsonl`); in memory it is
/// ``sceneText``. The CSV itself stays exactly as above, so any CSV reader still reads it. The
/// format is described in <doc:Traces>.
///
/// ```swift
/// let writer = try CSVFrameWriter(path: "rain.csv")
/// writer.record(animator)          // rows and scene, every frame, until close()
/// ```
///
/// A writer is not thread-safe: use it from one isolation domain, like the animator it listens to.
public final class CSVFrameWriter {
    /// The header line, without its line ending.
    public static let header = "frame,time,item,x,y,angle,vx,vy,angular_velocity,resting"

    /// The line ending of every row: CRLF, as RFC 4180 specifies.
    public static let lineEnding = "\r\n"

    /// The file being written, or `nil` for a writer that keeps its text in memory.
    public let path: String?

    /// The first error met while writing the file (or the scene file), or `nil`. After an error
    /// the writer stops writing (later rows are dropped) and `isClosed` becomes `true`. Its
    /// description names the file and the cause (`cannot write rain.csv: No space left on
    /// device`). Check it after ``close()``: a trace cut by a full disk or a file-size limit is
    /// otherwise indistinguishable from a short run. (Past a file-size limit the system sends
    /// `SIGXFSZ`, which ends the process unless it is ignored; the `playground` ignores it.)
    public private(set) var error: (any Error)?

    /// Whether `close()` was called, or a file error stopped the writer. Writes are then ignored.
    public private(set) var isClosed = false

    /// The buffer size of the file mode, in bytes: 64 KiB.
    static let bufferCapacity = 64 * 1024

    /// The scene file written beside the trace, for a writer made with `init(path:)`:
    /// ``TraceScene/scenePath(forTrace:)`` of ``path``; `nil` in memory. The file is created
    /// when the first scene is written (``record(_:)`` or ``write(_:scene:)``).
    public let scenePath: String?

    private var memoryText = ""
    private var fileHandle: OutputFile?
    private var buffer: [UInt8] = []
    private var memorySceneText = ""
    private var sceneHandle: OutputFile?
    /// Whether the scene file's first line has been written.
    private var sceneStarted = false
    /// Opens a file of the trace: ``OutputFile/init(path:append:)``, or a stand-in in tests.
    private let open: (String) throws(OutputFileError) -> OutputFile
    private var sceneBuffer: [UInt8] = []
    /// The scene as last written by ``write(_:scene:)``, to write only what changed.
    private var lastScene: TraceScene?

    /// Creates a writer that keeps the CSV in memory; read it from `text`.
    public init() {
        path = nil
        scenePath = nil
        open = { path throws(OutputFileError) in try OutputFile(path: path) }
        memoryText = Self.header + Self.lineEnding
    }

    /// Creates a writer that streams the CSV to the file at `path`, truncating any file there.
    ///
    /// The header is buffered at once; rows follow as reports are written. Call `close()` when
    /// done (it also runs when the writer is deinitialised), then check ``error``.
    ///
    /// Both files are opened in place, as a shell's `>` does: a symbolic link is written through,
    /// an existing file is truncated rather than replaced. Only regular files are written: a
    /// directory, a device or a FIFO at either path is refused. A scene file left at
    /// ``scenePath`` by an earlier trace is emptied at once, and an empty scene file reads as
    /// none, so it cannot be taken for this trace's scene.
    ///
    /// - Parameter path: The file's path.
    /// - Throws: The error of opening either file, naming the file and the cause.
    public convenience init(path: String) throws {
        try self.init(path: path, opening: { path throws(OutputFileError) in try OutputFile(path: path) })
    }

    /// A file writer whose files are opened by `opening` (tests hand it `/dev/full`).
    init(path: String, opening: @escaping (String) throws(OutputFileError) -> OutputFile) throws(OutputFileError) {
        self.path = path
        let scenePath = TraceScene.scenePath(forTrace: path)
        self.scenePath = scenePath
        open = opening
        fileHandle = try opening(path)
        // An old scene file: refused unless a regular file, else emptied now.
        var info = stat()
        if stat(scenePath, &info) == 0 || errno != ENOENT {
            do {
                sceneHandle = try opening(scenePath)
            } catch {
                try? fileHandle?.close()
                fileHandle = nil
                throw error
            }
        }
        buffer.reserveCapacity(Self.bufferCapacity)
        buffer.append(contentsOf: (Self.header + Self.lineEnding).utf8)
    }

    deinit {
        close()
    }

    /// The CSV written so far, header included, when the writer keeps its text in memory.
    ///
    /// A writer created with `init(path:)` keeps nothing: for it, `text` is the empty string;
    /// read the file instead (after `flush()` or `close()`).
    public var text: String {
        path == nil ? memoryText : ""
    }

    /// The scene file's text, when the writer keeps its text in memory: its first line, then
    /// one line per change (see <doc:Traces>); empty until a scene is written. For a writer
    /// created with `init(path:)` it is the empty string; read the file at ``scenePath``.
    public var sceneText: String {
        path == nil ? memorySceneText : ""
    }

    /// The number of bytes waiting in the file buffers (at most about 64 KiB each).
    var bufferedByteCount: Int { buffer.count + sceneBuffer.count }

    /// Appends one row per item of `report`. Ignored after `close()`.
    ///
    /// - Parameter report: The frame to write.
    public func write(_ report: FrameReport) {
        writeRaw(Self.rows(for: report))
    }

    /// Appends CSV rows already formatted (each ending with CRLF). Ignored after `close()`.
    func writeRaw(_ rows: String) {
        guard !isClosed else { return }
        if path == nil {
            memoryText += rows
            return
        }
        buffer.append(contentsOf: rows.utf8)
        if buffer.count >= Self.bufferCapacity {
            flush()
        }
    }

    /// Writes the rows of `report`, after the lines that bring the scene file from the scene
    /// last written to `scene` (the whole scene the first time). Ignored after `close()`.
    ///
    /// ``record(_:)`` does this for an animator, cheaply; call this one for frames that do not
    /// come from an animator's observer (a scene of your own, a converted log).
    ///
    /// - Parameters:
    ///   - report: The frame to write.
    ///   - scene: The scene of this frame: `scene.items[i]` describes `report.items[i]`.
    public func write(_ report: FrameReport, scene: TraceScene) {
        guard !isClosed else { return }
        writeScene(TraceSceneChange.changes(from: lastScene, to: scene, frame: report.index))
        lastScene = scene
        write(report)
    }

    /// Writes every frame of `animator` from now on, with its scene: a frame observer that
    /// writes the scene's changes (the whole scene at the first frame) and then the frame's rows.
    ///
    /// The observer keeps the writer alive and holds the animator weakly. After ``close()`` it
    /// writes nothing; remove it with ``DynamicAnimator/removeFrameObserver(_:)`` and the token
    /// returned.
    ///
    /// - Parameter animator: The animator to record.
    /// - Returns: The frame observer's token.
    @discardableResult
    public func record(_ animator: DynamicAnimator) -> FrameObserverToken {
        let recorder = TraceSceneRecorder()
        return animator.addFrameObserver { [weak animator] report in
            guard !self.isClosed, let animator else { return }
            self.writeScene(recorder.changes(for: animator, frame: report.index))
            self.write(report)
        }
    }

    /// Appends scene lines (and, before the first, the scene file's header line).
    private func writeScene(_ changes: [TraceSceneChange]) {
        guard !changes.isEmpty, !isClosed else { return }
        var text = ""
        if path == nil ? memorySceneText.isEmpty : !sceneStarted {
            text += TraceSceneChange.headerLine + "\n"
            sceneStarted = true
        }
        for change in changes { text += change.jsonLine + "\n" }
        if path == nil {
            memorySceneText += text
            return
        }
        if sceneHandle == nil, let scenePath {
            do {
                sceneHandle = try open(scenePath)
            } catch {
                fail(error)
                return
            }
        }
        sceneBuffer.append(contentsOf: text.utf8)
        if sceneBuffer.count >= Self.bufferCapacity {
            flush()
        }
    }

    /// Hands the buffered rows (and scene lines) to the files (the operating system may still
    /// hold them; this does not `fsync`). Does nothing for an in-memory writer or after `close()`.
    public func flush() {
        if let handle = sceneHandle, !sceneBuffer.isEmpty {
            do {
                try Self.write(sceneBuffer, to: handle)
                sceneBuffer.removeAll(keepingCapacity: true)
            } catch {
                fail(error)
                return
            }
        }
        guard let handle = fileHandle, !buffer.isEmpty else { return }
        do {
            try Self.write(buffer, to: handle)
            buffer.removeAll(keepingCapacity: true)
        } catch {
            fail(error)
        }
    }

    private static func write(_ bytes: [UInt8], to handle: OutputFile) throws(OutputFileError) {
        try handle.write(bytes)
    }

    /// Flushes and closes the file (and the scene file); later writes are ignored. Closing
    /// twice is harmless.
    public func close() {
        guard !isClosed else { return }
        flush()
        isClosed = true
        buffer = []
        sceneBuffer = []
        lastScene = nil
        for handle in [fileHandle, sceneHandle].compactMap({ $0 }) {
            do {
                try Self.close(handle)
            } catch {
                if self.error == nil { self.error = error }
            }
        }
        fileHandle = nil
        sceneHandle = nil
    }

    private func fail(_ error: any Error) {
        if self.error == nil { self.error = error }
        buffer = []
        sceneBuffer = []
        isClosed = true
        for handle in [fileHandle, sceneHandle].compactMap({ $0 }) { try? Self.close(handle) }
        fileHandle = nil
        sceneHandle = nil
    }

    private static func close(_ handle: OutputFile) throws(OutputFileError) {
        try handle.close()
    }
}

// MARK: - Formatting

extension CSVFrameWriter {
    /// The CSV rows of `report`, each ending with CRLF.
    static func rows(for report: FrameReport) -> String {
        var text = ""
        let frame = String(report.index)
        let time = field(report.time)
        for (position, item) in report.items.enumerated() {
            let itemField = item.name.map(escape) ?? String(position)
            let fields = [
                frame, time, itemField,
                field(item.center.x), field(item.center.y), field(item.angle),
                field(item.velocity.x), field(item.velocity.y), field(item.angularVelocity),
                item.isResting ? "true" : "false",
            ]
            text += fields.joined(separator: ",")
            text += lineEnding
        }
        return text
    }

    /// `value` in the shortest form that reads back to the same bits; `nan`, `inf`, `-inf`.
    static func field(_ value: Double) -> String {
        value.isNaN ? "nan" : value.description
    }

    /// `value` in the shortest form that reads back to the same bits; `nan`, `inf`, `-inf`.
    static func field(_ value: CGFloat) -> String {
        field(Double(value))
    }

    /// `text` as an RFC 4180 field: quoted, quotes doubled, when it holds `,`, `"`, CR or LF.
    static func escape(_ text: String) -> String {
        let needsQuotes = text.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

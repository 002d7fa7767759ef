import Foundation

/// Something wrong in a trace, where it is: the line, and what is wrong with it.
public struct TraceDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The file a trace is made of.
    public enum File: Sendable, Equatable {
        /// The frames: the CSV.
        case frames
        /// The scene file beside it.
        case scene
    }

    /// The file the line is in.
    public var file: File
    /// The line, counted from 1 (line breaks inside quoted fields count); 0 for the file as a
    /// whole (a scene file that is a directory, or too large).
    public var line: Int
    /// What is wrong, in a sentence. Text quoted from the file has its control characters
    /// escaped (`\u{1B}`), so a message can be printed on a terminal as it is.
    public var message: String

    /// Creates a diagnostic.
    ///
    /// - Parameters:
    ///   - file: The file; default ``File/frames``.
    ///   - line: The line, from 1.
    ///   - message: What is wrong.
    public init(file: File = .frames, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `line 12: …` for the frames, `scene line 3: …` for the scene file, `scene file: …` for
    /// the scene file as a whole.
    public var description: String {
        if line <= 0 { return (file == .scene ? "scene file: " : "file: ") + message }
        return (file == .scene ? "scene line " : "line ") + "\(line): \(message)"
    }
}

/// One frame read back from a trace: the items' poses and what the items look like.
public struct TraceFrame: Sendable, Equatable {
    /// The frame's place in the file, counted from 0 (frame numbers, in ``report``, need not
    /// start at 0 or be consecutive).
    public var position: Int
    /// The line of its first row.
    public var line: Int
    /// The frame: its number (`index`), time (s) and one item per good row, in file order.
    /// `steps` is 0: traces do not record it. An item whose `item` field is its position in the
    /// frame (an unnamed item) has a `nil` name.
    public var report: FrameReport
    /// The scene of this frame, its items aligned with `report.items`: an item the scene file
    /// does not describe (or every item, for a trace without a scene file) has no parts.
    public var scene: TraceScene
}

/// Reads a trace — the CSV of ``CSVFrameWriter`` and the scene file beside it — one frame at a
/// time, forward or back, without loading the file.
///
/// The reader keeps a fixed buffer (256 KiB, more only for a record longer than that), an index
/// of where frames start (built as frames are reached, never the frames themselves: every frame
/// up to 16 384, then every second, fourth … so it stays under about 0.7 MB), and the scene
/// file's changes (one entry per change, read at once, at most 64 MiB of them). Going back to a
/// frame seeks to the nearest start the index holds before it, skims on and reads it again.
///
/// **Damaged traces never stop it.** A row that cannot be used — too few or too many fields, a
/// value that is not a number or not finite, a truncated last line — is left out of its frame;
/// an item the scene file does not describe is drawn as a mark; an empty file has no frames.
/// Each problem is a ``TraceDiagnostic`` with its line, reported the first time its frame is
/// read (at most ``maximumDiagnostics`` are kept; ``diagnosticCount`` counts them all).
///
/// **Columns** are found by the header's names, so extra columns are ignored and their order is
/// free; `frame`, `time`, `item`, `x` and `y` are required, `angle`, `vx`, `vy`,
/// `angular_velocity` (0) and `resting` (`false`) optional. A file without a header whose first
/// row has ten fields and a whole-number first field is read in ``CSVFrameWriter/header``'s
/// order, with a diagnostic. A frame is a run of consecutive rows with the same `frame`.
///
/// ```swift
/// let reader = try TraceReader(path: "rain.csv")      // and rain.scene.jsonl, if present
/// let renderer = ASCIIRenderer(width: 80, height: 24)
/// while let frame = reader.nextFrame() {
///     print(renderer.render(frame.report, scene: frame.scene))
/// }
/// ```
///
/// A reader is not thread-safe: use it from one isolation domain.
public final class TraceReader {
    /// The trace's path, or `nil` for a trace in memory.
    public let path: String?

    /// The scene file read with the trace, or `nil` when there is none (an old trace, or one
    /// written without ``CSVFrameWriter/record(_:)``): items are then drawn as marks.
    public let scenePath: String?

    /// Whether a scene file (or scene text) came with the trace and describes something. An
    /// empty scene file (``CSVFrameWriter`` empties an old one it does not write over) and one
    /// that cannot be read (a diagnostic says why) count as none.
    public private(set) var hasScene: Bool

    /// The largest scene file read: 64 MiB. The scene is held in memory (it describes every
    /// change at once); the lines past this are left out with a diagnostic.
    public static let maximumSceneFileBytes = 64 << 20

    /// The longest scene line read: 8 MiB (a boundary of about 300 000 segments). A longer
    /// line is skipped with a diagnostic, unread.
    public static let maximumSceneLineBytes = 8 << 20

    /// The problems found so far, in the order found (at most ``maximumDiagnostics``).
    public private(set) var diagnostics: [TraceDiagnostic] = []

    /// The number of problems found so far, including those not kept in ``diagnostics``.
    public private(set) var diagnosticCount = 0

    /// The most diagnostics kept: 1000.
    public static let maximumDiagnostics = 1000

    /// The number of frames in the trace, once the reader has reached its end (by reading or
    /// scanning to the last frame); `nil` before.
    public private(set) var frameCount: Int?

    /// The number of frames whose start is known (read or passed): ``frame(at:)`` below this
    /// seeks to the nearest frame the index holds before it and skims on from there.
    public var indexedFrameCount: Int { knownFrames }

    /// The most frames the index holds: 16 384. Past that it keeps every second entry and
    /// doubles ``indexStride``, so the index never passes about 0.8 MB however long the trace.
    static let maximumIndexEntries = 16_384

    /// The most separate runs of frames remembered as checked (their problems reported): 1 024.
    /// Past that the shortest run is forgotten, and its frames, read again, report again.
    static let maximumCheckedRuns = 1_024

    // MARK: State

    /// Where a frame starts and what is known of it without reading it.
    private struct IndexEntry {
        var offset: Int
        var line: Int
        /// The `frame` number of its first row (-1 when that row's is unreadable).
        var number: Int
        /// The time of its first row (s), or the previous frame's when unreadable.
        var time: Double
        /// How many scene changes apply to it (a prefix of `sceneLog`).
        var sceneChanges: Int
    }

    /// The columns used, by index in a row.
    private struct Columns {
        var frame = 0, time = 1, item = 2, x = 3, y = 4
        var angle: Int? = 5, vx: Int? = 6, vy: Int? = 7, angularVelocity: Int? = 8, resting: Int? = 9
        /// The number of fields a row must have (the header's).
        var count = 10
    }

    private let stream: CSVRecordStream
    private var handle: FileHandle?
    private var columns = Columns()
    /// Where frames start: `index[k]` is the frame at position `k × indexStride`. Frames in
    /// between are found by skimming on from the entry before them.
    private var index: [IndexEntry] = []
    private var indexStride = 1
    /// The frames whose start is known: positions `0 ..< knownFrames`.
    private var knownFrames = 0
    /// The last known frame (at `knownFrames - 1`), from which scanning goes on.
    private var frontier: IndexEntry?
    /// The last frame located off the index, so that reading frame after frame does not skim
    /// from the index entry each time.
    private var cursor: (position: Int, entry: IndexEntry)?
    /// The frames whose rows have been checked, as sorted, separate runs of positions.
    private var checkedRuns: [Range<Int>] = []
    /// The scene file's changes, in file order, frames made non-decreasing.
    private var sceneLog: [TraceSceneChange] = []
    /// The scene after the first `sceneApplied` changes.
    private var scene = TraceScene()
    private var sceneApplied = 0
    /// For matching rows by key when positions disagree; rebuilt after the scene changes.
    private var keyPositions: [String: Int]?
    private var unknownKeysReported: Set<String> = []
    private var nextPosition = 0

    // MARK: Opening

    /// Opens the trace at `path` and the scene file beside it
    /// (``TraceScene/scenePath(forTrace:)``), if there is one.
    ///
    /// - Parameter path: The CSV's path.
    /// - Throws: The error of opening the CSV, or ``TraceFileError`` when it is not a regular
    ///   file. A scene file that is missing is no error; one that cannot be read (a directory,
    ///   a device, a read error) is a diagnostic of the scene file, and the trace is read
    ///   without it.
    public convenience init(path: String) throws {
        let scene = TraceScene.scenePath(forTrace: path)
        var info = stat()
        let exists = lstat(scene, &info) == 0
        try self.init(path: path, scenePath: exists ? scene : nil)
    }

    /// Opens the trace at `path` with the scene file at `scenePath`.
    ///
    /// - Parameters:
    ///   - path: The CSV's path.
    ///   - scenePath: The scene file's path, or `nil` to read the trace without one.
    /// - Throws: The error of opening the CSV, or ``TraceFileError`` when it is not a regular
    ///   file (a directory, a device such as `/dev/zero`, a FIFO: a trace is read by seeking).
    ///   Problems with the scene file are diagnostics (see ``init(path:)``).
    public init(path: String, scenePath: String?) throws {
        try Self.requireRegularFile(path)
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        self.path = path
        self.handle = handle
        self.scenePath = scenePath
        stream = CSVRecordStream(handle: handle)
        hasScene = false
        if let scenePath {
            if let data = readSceneFile(scenePath) {
                loadScene(data)
            }
        }
        readHeader()
    }

    /// Reads a trace held in memory: the CSV text and, optionally, the scene file's text (as
    /// ``CSVFrameWriter/text`` and ``CSVFrameWriter/sceneText`` give them).
    ///
    /// - Parameters:
    ///   - text: The CSV.
    ///   - sceneText: The scene file's text; default `nil` (no scene). Empty text is no scene.
    public init(text: String, sceneText: String? = nil) {
        path = nil
        scenePath = nil
        stream = CSVRecordStream(bytes: Array(text.utf8))
        hasScene = false
        if let sceneText {
            var data = Data(sceneText.utf8)
            if data.count > Self.maximumSceneFileBytes {
                data = cutScene(data)
            }
            loadScene(data)
        }
        readHeader()
    }

    /// Throws unless `path` is a regular file (through links).
    private static func requireRegularFile(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { return }   // opening says why
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw TraceFileError(path: path, problem: OutputFile.kindName(info) + ", not a trace file")
        }
    }

    /// The scene file's bytes (at most ``maximumSceneFileBytes``), or nil with a diagnostic
    /// naming what is wrong with it.
    private func readSceneFile(_ scenePath: String) -> Data? {
        var info = stat()
        guard stat(scenePath, &info) == 0 else {
            report(0, "cannot be read (\(String(cString: strerror(errno)))); the frames are drawn without it", file: .scene)
            return nil
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            report(0, OutputFile.kindName(info) + ", not a scene file; the frames are drawn without it", file: .scene)
            return nil
        }
        do {
            let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: scenePath))
            defer { try? file.close() }
            let data = try file.read(upToCount: Self.maximumSceneFileBytes + 1) ?? Data()
            return data.count > Self.maximumSceneFileBytes ? cutScene(data) : data
        } catch {
            report(0, "cannot be read (\(error.localizedDescription)); the frames are drawn without it", file: .scene)
            return nil
        }
    }

    /// `data` cut to ``maximumSceneFileBytes`` at a line's end, with a diagnostic.
    private func cutScene(_ data: Data) -> Data {
        let limit = Self.maximumSceneFileBytes
        var end = limit
        while end > 0 && data[data.startIndex + end - 1] != UInt8(ascii: "\n") { end -= 1 }
        report(0, "larger than \(limit >> 20) MiB; the lines past that are left out", file: .scene)
        return data.prefix(end)
    }

    deinit {
        try? handle?.close()
    }

    /// Counts a problem and keeps it (the first ``maximumDiagnostics``), its control characters
    /// escaped: messages quote the file, and the file must not steer a terminal they reach.
    private func report(_ line: Int, _ message: String, file: TraceDiagnostic.File = .frames) {
        diagnosticCount += 1
        if diagnostics.count < Self.maximumDiagnostics {
            diagnostics.append(TraceDiagnostic(file: file, line: line, message: TerminalText.escaped(message)))
        }
    }

    /// The bytes the reader holds, for memory accounting: its buffer, its index, its scene and
    /// the tables beside them (diagnostics, items reported unknown, items by key), all that lives
    /// from frame to frame.
    var heldBytes: Int {
        var parts = 0
        for item in scene.items {
            for part in item.parts {
                if case .path(let v) = part.shape { parts += v.count * MemoryLayout<CGPoint>.stride }
            }
            parts += item.parts.count * MemoryLayout<TraceScene.Part>.stride + item.key.utf8.count
        }
        var tables = diagnostics.capacity * MemoryLayout<TraceDiagnostic>.stride
            + diagnostics.reduce(0) { $0 + $1.message.utf8.count }
            + unknownKeysReported.capacity * MemoryLayout<String>.stride + unknownKeysReported.reduce(0) { $0 + $1.utf8.count }
        if let keys = keyPositions {
            tables += keys.capacity * (MemoryLayout<String>.stride + MemoryLayout<Int>.stride)
        }
        return tables + stream.heldBytes + index.capacity * MemoryLayout<IndexEntry>.stride
            + checkedRuns.capacity * MemoryLayout<Range<Int>>.stride
            + sceneLog.capacity * MemoryLayout<TraceSceneChange>.stride
            + scene.items.capacity * MemoryLayout<TraceScene.Item>.stride + parts
    }

    // MARK: The header

    private func readHeader() {
        guard let first = stream.next() else {
            report(1, "the file is empty; a trace starts with the header \(CSVFrameWriter.header)")
            frameCount = 0
            return
        }
        if first.tooLong {
            report(first.line, "the header line is longer than \(CSVRecordStream.maximumRecordBytes) bytes; this is not a trace")
            frameCount = 0
            return
        }
        var names = (0 ..< first.fieldCount).map { stream.string($0) }
        if let name = names.first, name.hasPrefix("\u{FEFF}") { names[0] = String(name.dropFirst()) }
        func column(_ name: String) -> Int? { names.firstIndex(of: name) }
        let required = ["frame", "time", "item", "x", "y"]
        let missing = required.filter { column($0) == nil }
        if missing.isEmpty {
            columns = Columns(frame: column("frame")!, time: column("time")!, item: column("item")!, x: column("x")!,
                              y: column("y")!, angle: column("angle"), vx: column("vx"), vy: column("vy"),
                              angularVelocity: column("angular_velocity"), resting: column("resting"),
                              count: names.count)
            startFrame(at: stream.offset, line: stream.currentLine, previousTime: 0)
        } else if first.fieldCount == 10, stream.integer(0) != nil {
            report(first.line, "no header; reading the columns in the order \(CSVFrameWriter.header)")
            startFrame(at: first.offset, line: first.line, previousTime: 0)
        } else {
            report(first.line, "the header has no column \(missing.joined(separator: ", ")) (a trace starts with \(CSVFrameWriter.header))")
            frameCount = 0
            return
        }
        if knownFrames == 0 {
            report(first.line + 1, "no frames: the file holds only the header")
        }
    }

    /// Records the frame starting at `offset` as the next known frame (reading its first row's
    /// number and time), or the trace's end when no row follows.
    private func startFrame(at offset: Int, line: Int, previousTime: Double) {
        stream.seek(to: offset, line: line)
        var first: CSVRecordStream.Record?
        while let record = stream.next() {
            if record.isBlank { continue }
            first = record
            break
        }
        guard let record = first else {
            frameCount = knownFrames
            return
        }
        advanceFrontier(entry(startingWith: record, previousTime: previousTime, after: frontier))
    }

    /// The index entry of a frame whose first row is the record just read.
    private func entry(startingWith record: CSVRecordStream.Record, previousTime: Double, after previous: IndexEntry?) -> IndexEntry {
        let number = record.fieldCount > columns.frame ? stream.integer(columns.frame) ?? -1 : -1
        var time = previousTime
        if record.fieldCount > columns.time, let t = stream.double(columns.time), t.isFinite { time = t }
        let applied = previous?.sceneChanges ?? 0
        return IndexEntry(offset: record.offset, line: record.line, number: number, time: time,
                          sceneChanges: max(applied, sceneChangeCount(upTo: number)))
    }

    /// Adds the frame after the last known one: checks its order, and keeps it in the index when
    /// its position falls on the stride (thinning the index when it is full).
    private func advanceFrontier(_ entry: IndexEntry) {
        if let last = frontier {
            if entry.number < last.number {
                report(entry.line, "frame \(entry.number) follows frame \(last.number); frame numbers should not go back")
            }
            if entry.time < last.time {
                report(entry.line, "the time goes back from \(last.time) s to \(entry.time) s")
            }
        }
        let position = knownFrames
        if position % indexStride == 0 {
            if index.count == Self.maximumIndexEntries {
                // Keep the entries at even places: the stride doubles, the positions stay multiples of it.
                var k = 0
                index.removeAll { _ in defer { k += 1 }; return k % 2 == 1 }
                indexStride *= 2
            }
            if position % indexStride == 0 { index.append(entry) }
        }
        frontier = entry
        knownFrames += 1
    }

    /// Where the frame after `entry` starts, passing over its rows (only their frame numbers are
    /// read); nil when the file ends first. Records nothing.
    private func followingEntry(_ entry: IndexEntry) -> IndexEntry? {
        stream.seek(to: entry.offset, line: entry.line)
        // Skimmed: only the frame field of each row is read (a frame of 2 000 rows in well
        // under a millisecond), so a player can pass many frames in one display frame.
        _ = stream.skim(field: columns.frame)   // its first row
        while let record = stream.skim(field: columns.frame) {
            guard !record.isBlank, let number = record.integer, number != entry.number else { continue }
            stream.seek(to: record.offset, line: record.line)
            guard let first = stream.next() else { return nil }
            return self.entry(startingWith: first, previousTime: entry.time, after: entry)
        }
        return nil
    }

    /// The index entry of the known frame at `position`: from the index, the cursor or the
    /// frontier, skimming on from the nearest one before it.
    private func entry(at position: Int) -> IndexEntry {
        precondition(position >= 0 && position < knownFrames)
        if position == knownFrames - 1, let frontier { return frontier }
        var at = (position / indexStride) * indexStride
        var current = index[position / indexStride]
        if let cursor, cursor.position <= position, cursor.position >= at {
            at = cursor.position
            current = cursor.entry
        }
        while at < position {
            guard let next = followingEntry(current) else { break }   // cannot happen below knownFrames
            current = next
            at += 1
        }
        cursor = (position, current)
        return current
    }

    /// Whether the rows of the frame at `position` have not been checked yet; marks them checked.
    private func checkOnce(_ position: Int) -> Bool {
        // The first run that ends at or after `position`: it holds it, ends just before it, or follows it.
        var low = 0, high = checkedRuns.count
        while low < high {
            let mid = (low + high) / 2
            if checkedRuns[mid].upperBound < position { low = mid + 1 } else { high = mid }
        }
        if low < checkedRuns.count && checkedRuns[low].contains(position) { return false }
        let joinsPrevious = low < checkedRuns.count && checkedRuns[low].upperBound == position
        let after = joinsPrevious ? low + 1 : low
        let joinsNext = after < checkedRuns.count && checkedRuns[after].lowerBound == position + 1
        switch (joinsPrevious, joinsNext) {
        case (true, true):
            checkedRuns[low] = checkedRuns[low].lowerBound ..< checkedRuns[after].upperBound
            checkedRuns.remove(at: after)
        case (true, false):
            checkedRuns[low] = checkedRuns[low].lowerBound ..< position + 1
        case (false, true):
            checkedRuns[after] = position ..< checkedRuns[after].upperBound
        case (false, false):
            checkedRuns.insert(position ..< position + 1, at: low)
            if checkedRuns.count > Self.maximumCheckedRuns,
               let shortest = checkedRuns.indices.min(by: { checkedRuns[$0].count < checkedRuns[$1].count }) {
                checkedRuns.remove(at: shortest)
            }
        }
        return true
    }

    // MARK: Reading frames

    /// The frame at `position` (0-based), read through the index: a frame already passed is
    /// found at once; a later one is reached by scanning (only the frame numbers of the rows in
    /// between are read). `nil` past the last frame.
    ///
    /// - Parameter position: The frame's place in the file, from 0.
    public func frame(at position: Int) -> TraceFrame? {
        guard position >= 0, reachIndex(position) else { return nil }
        nextPosition = position + 1
        return readFrame(position)
    }

    /// The frame after the one last read (the first frame at first), or `nil` at the end.
    public func nextFrame() -> TraceFrame? {
        frame(at: nextPosition)
    }

    /// The time of the frame at `position` in seconds, as its first row gives it, without
    /// reading the frame (scanning up to it if it has not been reached); `nil` past the end.
    ///
    /// - Parameter position: The frame's place in the file, from 0.
    public func time(ofFrameAt position: Int) -> TimeInterval? {
        guard position >= 0, reachIndex(position) else { return nil }
        return entry(at: position).time
    }

    /// The `frame` number of the frame at `position`, from its first row (-1 when unreadable),
    /// scanning up to it if needed; `nil` past the end.
    ///
    /// - Parameter position: The frame's place in the file, from 0.
    public func frameNumber(ofFrameAt position: Int) -> Int? {
        guard position >= 0, reachIndex(position) else { return nil }
        return entry(at: position).number
    }

    /// Reads (scans) until the frame at `position` is known; false when the trace ends first.
    private func reachIndex(_ position: Int) -> Bool {
        while knownFrames <= position {
            guard frameCount == nil, let last = frontier else { return false }
            if let next = followingEntry(last) {
                advanceFrontier(next)
            } else {
                frameCount = knownFrames
                reportEndOfStream()
            }
        }
        return true
    }

    private func reportEndOfStream() {
        if let error = stream.readError {
            report(frontier?.line ?? 1, "reading stopped: \(error.localizedDescription)")
        }
    }

    /// Reads the frame at `position` in full.
    private func readFrame(_ position: Int) -> TraceFrame {
        let entry = entry(at: position)
        let check = checkOnce(position)
        let frameScene = sceneForFrame(entry)
        stream.seek(to: entry.offset, line: entry.line)

        var items: [FrameReport.Item] = []
        var parts: [TraceScene.Item] = []
        /// The report index of each good row's scene position, when rows were dropped or matched
        /// by key (attachments name scene positions).
        var remap: [Int: Int]? = nil
        var rowPosition = 0
        var firstTime: Double?
        var reachedNext = false
        while let record = stream.next() {
            if record.isBlank { continue }
            if record.tooLong {
                if check { report(record.line, "a row longer than \(CSVRecordStream.maximumRecordBytes) bytes; left out") }
                rowPosition += 1
                continue
            }
            if record.fieldCount > columns.frame, let number = stream.integer(columns.frame), number != entry.number,
               record.offset != entry.offset {
                let next = self.entry(startingWith: record, previousTime: entry.time, after: entry)
                if position + 1 == knownFrames { advanceFrontier(next) }
                if position + 1 < knownFrames { cursor = (position + 1, next) }
                reachedNext = true
                break
            }
            defer { rowPosition += 1 }
            guard let row = parseRow(record, check: check) else {
                if remap == nil { remap = identityRemap(upTo: items.count) }
                continue
            }
            if firstTime == nil { firstTime = row.time }
            else if check && row.time != firstTime! {
                report(record.line, "time \(row.time) s differs from the frame's first row (\(firstTime!) s); using the first")
            }
            let resolved = resolve(key: row.key, position: rowPosition, in: frameScene, line: record.line, check: check)
            if remap == nil && resolved.position != items.count { remap = identityRemap(upTo: items.count) }
            if let p = resolved.position { remap?[p] = items.count }
            items.append(FrameReport.Item(name: row.key == String(rowPosition) ? nil : row.key, center: row.center,
                                          angle: row.angle, velocity: row.velocity, angularVelocity: row.angularVelocity,
                                          isResting: row.resting))
            parts.append(resolved.item)
        }
        if !reachedNext && position + 1 == knownFrames && frameCount == nil {
            frameCount = knownFrames
            reportEndOfStream()
        }
        var attachments = frameScene.attachments
        if let remap {
            attachments = attachments.compactMap { a in
                var a = a
                for k in a.items.indices {
                    guard let mapped = remap[a.items[k].item] else { return nil }
                    a.items[k].item = mapped
                }
                return a
            }
        } else if items.count < frameScene.items.count {
            // Rows missing at the frame's end (a cut file, a deleted line): an attachment that
            // names one of them has nothing to draw to.
            attachments.removeAll { a in a.items.contains { $0.item >= items.count } }
        }
        let report = FrameReport(index: entry.number, time: firstTime ?? entry.time, steps: 0, items: items)
        let aligned = TraceScene(referenceBounds: frameScene.referenceBounds, boundaries: frameScene.boundaries,
                                 items: parts, attachments: attachments, snapPoints: frameScene.snapPoints)
        return TraceFrame(position: position, line: entry.line, report: report, scene: aligned)
    }

    private func identityRemap(upTo count: Int) -> [Int: Int] {
        var map: [Int: Int] = [:]
        for k in 0 ..< count { map[k] = k }
        return map
    }

    /// One good row.
    private struct Row {
        var time: Double
        var key: String
        var center: CGPoint
        var angle: CGFloat
        var velocity: CGPoint
        var angularVelocity: CGFloat
        var resting: Bool
    }

    /// The row just read, or nil (reported when `check`) when it cannot be used.
    private func parseRow(_ record: CSVRecordStream.Record, check: Bool) -> Row? {
        func fail(_ message: String) -> Row? {
            if check { report(record.line, message) }
            return nil
        }
        if record.unterminatedQuote {
            return fail("a quoted field is not closed before the end of the file; row left out")
        }
        if record.fieldCount != columns.count {
            if record.fieldCount < columns.count && !record.endsWithLineBreak {
                return fail("truncated row: the file ends after \(record.fieldCount) of \(columns.count) fields")
            }
            return fail("\(record.fieldCount) fields, but the header has \(columns.count); row left out")
        }
        let c = columns
        guard stream.integer(c.frame) != nil else {
            return fail("frame is \"\(stream.string(c.frame))\", not a whole number; row left out")
        }
        func number(_ k: Int?, _ name: String) -> Double?? {
            guard let k else { return .some(0) }
            guard let value = stream.double(k) else {
                _ = fail("\(name) is \"\(stream.string(k))\", not a number; row left out")
                return nil
            }
            guard value.isFinite else {
                _ = fail("\(name) is \(stream.string(k)), not a finite number; row left out")
                return nil
            }
            return .some(value)
        }
        guard let time = number(c.time, "time"), let x = number(c.x, "x"), let y = number(c.y, "y"),
              let angle = number(c.angle, "angle"), let vx = number(c.vx, "vx"), let vy = number(c.vy, "vy"),
              let w = number(c.angularVelocity, "angular_velocity") else { return nil }
        var resting = false
        if let k = c.resting {
            if stream.field(k, equals: "true", caseInsensitive: true) || stream.field(k, equals: "1") {
                resting = true
            } else if !(stream.field(k, equals: "false", caseInsensitive: true) || stream.field(k, equals: "0")) {
                return fail("resting is \"\(stream.string(k))\", not true or false; row left out")
            }
        }
        return Row(time: time!, key: stream.string(c.item), center: CGPoint(x: x!, y: y!), angle: CGFloat(angle!),
                   velocity: CGPoint(x: vx!, y: vy!), angularVelocity: CGFloat(w!), resting: resting)
    }

    /// The scene description of a row: the item at the row's position when its key matches,
    /// else the first item with that key, else an undescribed item (reported once per key when
    /// the trace has a scene).
    private func resolve(key: String, position: Int, in scene: TraceScene, line: Int, check: Bool)
        -> (item: TraceScene.Item, position: Int?) {
        if position < scene.items.count, scene.items[position].key == key {
            return (scene.items[position], position)
        }
        if keyPositions == nil {
            var table: [String: Int] = [:]
            for (k, item) in scene.items.enumerated() where table[item.key] == nil && !item.parts.isEmpty {
                table[item.key] = k
            }
            keyPositions = table
        }
        if let k = keyPositions?[key] {
            return (scene.items[k], k)
        }
        if hasScene && check && unknownKeysReported.count < Self.maximumDiagnostics && unknownKeysReported.insert(key).inserted {
            report(line, "item \"\(key)\" is not in the scene file; drawn as a mark")
        }
        return (TraceScene.Item(key: key, parts: []), nil)
    }

    // MARK: The scene

    /// The scene of the frame `entry` starts.
    private func sceneForFrame(_ entry: IndexEntry) -> TraceScene {
        let wanted = entry.sceneChanges
        if wanted < sceneApplied {
            scene = TraceScene()
            sceneApplied = 0
        }
        if wanted > sceneApplied {
            for change in sceneLog[sceneApplied ..< wanted] { change.apply(to: &scene) }
            sceneApplied = wanted
            keyPositions = nil
        }
        return scene
    }

    /// The number of scene changes whose frame is at most `number`.
    private func sceneChangeCount(upTo number: Int) -> Int {
        var low = 0, high = sceneLog.count
        while low < high {
            let mid = (low + high) / 2
            if sceneLog[mid].frame <= number { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Reads the scene file: every line a change; bad lines are reported and skipped. An item
    /// line may place an item at most one past the items placed so far (files written by
    /// ``CSVFrameWriter`` always do): a position far beyond would make the scene allocate a
    /// description for every position up to it, from one short line.
    private func loadScene(_ data: Data) {
        guard !data.isEmpty else { return }
        hasScene = true
        var lineNumber = 0
        var sawHeader = false
        var lastFrame = Int.min
        var itemsPlaced = 0
        var start = data.startIndex
        while start < data.endIndex {
            let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
            defer { start = end < data.endIndex ? end + 1 : end }
            lineNumber += 1
            if end - start > Self.maximumSceneLineBytes {
                report(lineNumber, "a line of \(end - start) bytes, longer than \(Self.maximumSceneLineBytes >> 20) MiB; line skipped", file: .scene)
                continue
            }
            let text = String(decoding: data[start ..< end], as: UTF8.self)
            var line = text[...]
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            do {
                switch try TraceSceneChange.parse(line) {
                case .header(let format, let version):
                    if format != TraceScene.sceneFormat {
                        report(lineNumber, "format \"\(format)\" is not \(TraceScene.sceneFormat); reading it anyway", file: .scene)
                    } else if version > TraceScene.sceneFormatVersion {
                        report(lineNumber, "version \(version) is newer than \(TraceScene.sceneFormatVersion); reading what is understood", file: .scene)
                    }
                    sawHeader = true
                case .change(var change):
                    if case .item(let position, _) = change.kind {
                        guard position <= itemsPlaced else {
                            report(lineNumber, "item \(position) leaves a gap: \(itemsPlaced) items are placed so far, so the next is item \(itemsPlaced); line skipped", file: .scene)
                            continue
                        }
                        itemsPlaced = max(itemsPlaced, position + 1)
                    }
                    if change.frame < lastFrame {
                        report(lineNumber, "frame \(change.frame) follows frame \(lastFrame); taken as \(lastFrame)", file: .scene)
                        change.frame = lastFrame
                    }
                    lastFrame = change.frame
                    sceneLog.append(change)
                }
            } catch {
                report(lineNumber, "\(error.message); line skipped", file: .scene)
            }
        }
        if !sawHeader && !sceneLog.isEmpty {
            report(1, "no {\"format\":\"\(TraceScene.sceneFormat)\"} line; reading it anyway", file: .scene)
        }
    }
}

/// A file that cannot be read as a trace: the path and what is wrong with it.
public struct TraceFileError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The file.
    public var path: String
    /// What is wrong, e.g. `a directory, not a trace file`.
    public var problem: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - problem: What is wrong with it.
    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    /// `rain.csv: a directory, not a trace file`, control characters escaped.
    public var description: String { TerminalText.escaped("\(path): \(problem)") }
    /// The same as ``description``.
    public var errorDescription: String? { description }
}

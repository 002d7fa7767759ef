import Dynamics
import DynamicsScenes
import Foundation

/// Plays a recorded trace in the terminal at its recorded time (times `--speed`): one
/// display-link frame shows the last trace frame whose time has come. The trace is streamed
/// through a ``TraceReader``; only the frame on screen is held.
final class ReplayPlayer {
    let options: PlaygroundOptions
    let reader: TraceReader
    /// The trace's file name, for the status line and messages.
    let name: String
    /// Whether stdout is a terminal: full-screen playback with keys, else plain text frames.
    let interactive: Bool
    /// The position (in the file) of the frame on screen.
    private(set) var position: Int
    /// The trace time the playback has reached, in seconds.
    private var playhead: Double
    private var paused = false
    private var braille: Bool
    private var speed: Double
    /// The frame on screen, read once however often it is drawn.
    private var shown: TraceFrame?
    private var framesPlayed = 0
    private let frameLimit: Int?
    private var lastSize: (columns: Int, rows: Int)?
    /// Diagnostics already written to stderr (piped mode).
    private var diagnosticsWritten = 0
    private(set) var isFinished = false
    /// For `--stats`: the time each frame took to read and draw (ms), the display link's frame
    /// intervals (ms), and the most trace frames one display frame moved past.
    private var workTimes: [Double] = []
    private var intervals: [Double] = []
    private var mostFramesPassed = 0
    private let clock = ContinuousClock()
    /// The longest time one display-link frame took (keys, reading the trace, drawing), and how
    /// many took longer than the display period: printed after playback, so a stutter shows.
    private(set) var slowestFrame: Duration = .zero
    private(set) var lateFrames = 0
    private var slowestAt = 0

    /// - Parameter start: The position of the first frame to show.
    init(options: PlaygroundOptions, reader: TraceReader, interactive: Bool, start: Int) {
        self.options = options
        self.reader = reader
        self.interactive = interactive
        name = TerminalText.escaped(URL(fileURLWithPath: options.replayPath ?? "trace.csv").lastPathComponent)
        position = start
        playhead = reader.time(ofFrameAt: start) ?? 0
        braille = options.braille
        speed = options.speed
        frameLimit = interactive ? options.frameLimit(interactive: true) : options.frames
    }

    // MARK: Piped

    /// Prints every frame from the start (or the first `--frames`) as plain text, separated by
    /// blank lines, writing the trace's problems to stderr as they are found.
    func printFrames() {
        let size = pictureSize()
        var renderer = ASCIIRenderer(width: size.columns, height: size.rows)
        renderer.braille = braille
        var printed = 0
        var p = position
        while true {
            if let limit = frameLimit, printed >= limit { break }
            let start = clock.now
            guard let frame = reader.frame(at: p) else { break }
            Terminal.write((printed > 0 ? "\n" : "") + renderer.render(frame.report, scene: frame.scene) + "\n")
            if options.stats { workTimes.append(Self.milliseconds(start.duration(to: clock.now))) }
            printed += 1
            p += 1
            writeNewDiagnostics()
        }
        writeNewDiagnostics()
    }

    /// Writes the diagnostics found since the last call to stderr.
    func writeNewDiagnostics() {
        guard diagnosticsWritten < reader.diagnostics.count else { return }
        Self.writeDiagnostics(reader.diagnostics[diagnosticsWritten...], of: reader, name: name)
        diagnosticsWritten = reader.diagnostics.count
    }

    /// Writes `diagnostics` to stderr, each naming its file (the trace's `name`, or the scene
    /// file's) and line: `playground: rain.csv line 12: …`, `playground: rain.scene.jsonl: …` for
    /// the file as a whole. Escaped by `warn`: a message may quote the file.
    static func writeDiagnostics(_ diagnostics: some Sequence<TraceDiagnostic>, of reader: TraceReader, name: String) {
        for d in diagnostics {
            let file = d.file == .scene ? URL(fileURLWithPath: reader.scenePath ?? "").lastPathComponent : name
            warn(d.line > 0 ? "\(file) line \(d.line): \(d.message)" : "\(file): \(d.message)")
        }
    }

    // MARK: In the terminal

    /// One display-link frame: keys, the playhead, the picture.
    func frame(_ link: DisplayLink) {
        guard !isFinished else { return }
        let start = clock.now
        let drawnBefore = framesPlayed
        defer {
            let took = start.duration(to: clock.now)
            if took > slowestFrame { slowestFrame = took; slowestAt = framesPlayed }
            if took > .seconds(1.0 / Double(options.fps)) { lateFrames += 1 }
            // Only frames that drew something (not the one that saw a quit key or signal).
            if options.stats && framesPlayed > drawnBefore {
                workTimes.append(Self.milliseconds(took))
                if drawnBefore > 0 { intervals.append(link.lastFrameDuration * 1000) }
            }
        }
        if quitSignal.load(ordering: .sequentiallyConsistent) != 0 {
            finish(link)
            return
        }
        handleKeys(link)
        guard !isFinished else { return }
        if !paused {
            playhead += min(link.lastFrameDuration, DisplayLink.maximumAnimatorFrameDuration) * speed
            // The last frame whose time has come. Passing frames not yet indexed means scanning
            // them (only their frame numbers are read); when many come due at once (an animator
            // that paused kept recording, a high speed) the scan stops after a quarter of a
            // frame period, leaving the rest for reading and drawing the frame, and goes on at
            // the next frame: the picture catches up instead of stalling.
            let before = position
            let budget = Duration.seconds(0.25 / Double(options.fps))
            while let next = reader.time(ofFrameAt: position + 1), next <= playhead {
                position += 1
                if start.duration(to: clock.now) > budget { break }
            }
            mostFramesPassed = max(mostFramesPassed, position - before)
            if reader.time(ofFrameAt: position + 1) == nil {
                paused = true   // the end: hold the last frame
            }
        }
        draw()
        framesPlayed += 1
        if let limit = frameLimit, framesPlayed >= limit {
            finish(link)
        }
    }

    /// Draws the frame at ``position``.
    func draw() {
        if shown?.position != position {
            shown = reader.frame(at: position) ?? shown
        }
        let size = pictureSize()
        var renderer = ASCIIRenderer(width: size.columns, height: size.rows)
        renderer.braille = braille
        if let last = lastSize, last != size {
            Terminal.write("\u{1B}[2J")
        }
        lastSize = size
        guard let frame = shown else {
            Terminal.write("\u{1B}[H" + "\(name): no frames to play" + (reader.diagnostics.first.map { " (\($0))" } ?? ""))
            return
        }
        Terminal.write("\u{1B}[H" + renderer.render(frame.report, scene: frame.scene, statusLine: statusLine(frame, width: size.columns)))
    }

    /// After playback in the terminal: frames drawn, the slowest, and how many missed the display
    /// period (`--fps`).
    var timingSummary: String {
        let ms = Double(slowestFrame.components.attoseconds) / 1e15 + Double(slowestFrame.components.seconds) * 1000
        return "\(name): \(framesPlayed) frames drawn, slowest \(String(format: "%.1f", ms)) ms (frame \(slowestAt + 1)), "
            + "\(lateFrames) longer than the \(String(format: "%.1f", 1000 / Double(options.fps))) ms display period"
    }

    /// Stops playing (so `run` returns).
    func finish(_ link: DisplayLink?) {
        guard !isFinished else { return }
        isFinished = true
        link?.invalidate()
    }

    private func pictureSize() -> (columns: Int, rows: Int) {
        if let w = options.width, let h = options.height { return (w, h) }
        if interactive, let size = Terminal.size() { return size }
        return (80, 24)
    }

    /// The trace, the frame, the speed, the state and the problems, then the keys.
    private func statusLine(_ frame: TraceFrame, width: Int) -> String {
        let time = String(format: "%.2f", frame.report.time)
        let total = reader.frameCount.map { "/\($0)" } ?? ""
        let resting = frame.report.items.reduce(0) { $0 + ($1.isResting ? 1 : 0) }
        var line = "\(name)  t \(time) s  frame \(frame.report.index) (\(frame.position + 1)\(total))  "
            + "x\(Self.speedText(speed))  items \(frame.report.items.count)  resting \(resting)"
        if reader.diagnosticCount > 0 {
            line += "  \(reader.diagnosticCount) problem\(reader.diagnosticCount == 1 ? "" : "s")"
        }
        if paused { line += reader.time(ofFrameAt: position + 1) == nil ? "  END" : "  PAUSED" }
        for help in ["  | space pause  n/p step  +/- speed  r restart  b braille  q quit", "  | space n p + - r b q"]
        where line.count + help.count <= width {
            return line + help
        }
        return line
    }

    /// `4`, `0.5`, `0.125`: three significant digits at most.
    static func speedText(_ speed: Double) -> String {
        String(format: "%.3g", speed)
    }

    // MARK: Stats

    private static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15
    }

    /// What `--stats` prints: the read+draw time per frame (median, p99, max) against the frame
    /// period, in a terminal the display link's intervals and the largest jump in frames, and
    /// the process's peak resident memory.
    func statsReport() -> String {
        guard !workTimes.isEmpty else { return "replay stats: no frames drawn" }
        let sorted = workTimes.sorted()
        func percentile(_ p: Double, _ list: [Double]) -> Double {
            list[min(list.count - 1, Int((p * Double(list.count - 1)).rounded(.up)))]
        }
        func ms(_ v: Double) -> String { String(format: "%.2f ms", v) }
        let period = 1000 / Double(options.fps)
        let over = workTimes.filter { $0 > period }.count
        var text = "replay stats: \(workTimes.count) frames \(interactive ? "shown" : "printed"); read+draw per frame: "
            + "median \(ms(percentile(0.5, sorted))), p99 \(ms(percentile(0.99, sorted))), max \(ms(sorted.last!)); "
            + "frame period \(ms(period)) (--fps \(options.fps)); \(over) frame\(over == 1 ? "" : "s") over it"
        if interactive {
            let gaps = intervals.sorted()
            if !gaps.isEmpty {
                text += "; display-link intervals: median \(ms(percentile(0.5, gaps))), p99 \(ms(percentile(0.99, gaps))), max \(ms(gaps.last!))"
            }
            text += "; most trace frames passed in one display frame: \(mostFramesPassed)"
        }
        var usage = rusage()
        #if canImport(Glibc)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
        let who = RUSAGE_SELF
        #endif
        if getrusage(who, &usage) == 0 {
            #if canImport(Darwin)
            let bytes = Double(usage.ru_maxrss)          // bytes on Darwin
            #else
            let bytes = Double(usage.ru_maxrss) * 1024   // KiB on Linux
            #endif
            text += String(format: "; peak RSS %.1f MB", bytes / 1e6)
        }
        return text
    }

    // MARK: Keys

    private func handleKeys(_ link: DisplayLink) {
        let keys = Terminal.readKeys()
        var k = 0
        while k < keys.count {
            let key = keys[k]
            if key == 0x1B, k + 2 < keys.count, keys[k + 1] == UInt8(ascii: "[") {
                switch keys[k + 2] {
                case UInt8(ascii: "C"): step(by: 1)
                case UInt8(ascii: "D"): step(by: -1)
                default: break
                }
                k += 3
                continue
            }
            switch key {
            case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x1B:
                finish(link)
                return
            case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "."): step(by: 1)
            case UInt8(ascii: "p"), UInt8(ascii: "P"), UInt8(ascii: ","): step(by: -1)
            case UInt8(ascii: "r"), UInt8(ascii: "R"):
                position = 0
                playhead = reader.time(ofFrameAt: 0) ?? 0
                paused = false
            case UInt8(ascii: " "):
                if paused && reader.time(ofFrameAt: position + 1) == nil {
                    // At the end, space plays again from the start.
                    position = 0
                    playhead = reader.time(ofFrameAt: 0) ?? 0
                }
                paused.toggle()
            case UInt8(ascii: "+"), UInt8(ascii: "="): speed = min(speed * 2, 1000)
            case UInt8(ascii: "-"), UInt8(ascii: "_"): speed = max(speed / 2, 0.01)
            case UInt8(ascii: "b"), UInt8(ascii: "B"): braille.toggle()
            default: break
            }
            k += 1
        }
    }

    /// Shows the frame `delta` frames away and pauses there.
    private func step(by delta: Int) {
        paused = true
        let target = max(0, position + delta)
        guard let time = reader.time(ofFrameAt: target) else { return }
        position = target
        playhead = time
    }
}

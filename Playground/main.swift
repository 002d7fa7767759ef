import Dynamics
import DynamicsScenes
import Foundation

// `playground`: the UIKit Dynamics scene gallery in a terminal, and a player of recorded traces.
//
// In a terminal it takes the screen (alternate screen, hidden cursor, single-key input) and plays
// a scene in real time on a DisplayLink (ContinuousClock) at --fps, with a live stats line; keys
// switch scenes. When stdout is not a terminal it prints --frames frames (default 3) as plain
// text, separated by blank lines, ticking the link by hand so the output is the same every run.
//
// `playground replay FILE.csv` plays a trace the same way at its recorded time (or --speed),
// keys stepping frames; piped, it prints every frame. `--svg FILE` writes a picture instead.

/// Writes `message` to standard error as `playground: message`, every control character escaped
/// (file names and text from a trace must not steer the terminal).
func warn(_ message: String) {
    FileHandle.standardError.write(Data("playground: \(TerminalText.escaped(message))\n".utf8))
}

func parseOptions() -> PlaygroundOptions {
    do {
        return try PlaygroundOptions.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
        warn(error.message)
        exit(2)
    }
}

func fail(_ message: String) -> Never {
    warn(message)
    exit(1)
}

/// Writes `text` to `path` as every output is written (in place, regular files only, every error
/// checked), or exits with status 1 naming the file and the cause.
func writeFile(_ text: String, to path: String) {
    do {
        try OutputFile.write(text, to: path)
    } catch {
        fail(error.description)
    }
}

/// Runs `frame` on a display link until the player finishes: in the terminal in real time with
/// the screen taken (and given back, also on Ctrl-C), else ticked by hand.
func play(interactive: Bool, fps: Int, frame: @escaping (DisplayLink) -> Void, isFinished: () -> Bool,
          draw: () -> Void, finish: (DisplayLink) -> Void) async {
    let link = DisplayLink(preferredFramesPerSecond: fps)
    link.addObserver { link in frame(link) }
    if interactive {
        Terminal.take()
        draw()
        await link.run()
        finish(link)
        Terminal.restore()
    } else {
        while !isFinished() {
            link.tick()
        }
    }
}

// Past a file-size limit (`ulimit -f`) a write fails with EFBIG instead of killing the process,
// so the message can say which file.
signal(SIGXFSZ, SIG_IGN)

let options = parseOptions()

if options.help {
    print(PlaygroundOptions.usage)
    exit(0)
}
if options.list {
    let width = (UIKitScenes.all + UIKitBenchmarkScenes.scenes).map(\.name.count).max() ?? 0
    for scene in UIKitScenes.all + UIKitBenchmarkScenes.scenes {
        print(scene.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + scene.summary)
    }
    exit(0)
}

let interactive = Terminal.isInteractive

// A picture that could never be written is said before anything plays.
if let svgPath = options.svgPath {
    do { try OutputFile.checkKind(svgPath) } catch { fail(error.description) }
}

if let path = options.replayPath {
    // MARK: Replay
    let reader: TraceReader
    do {
        reader = try TraceReader(path: path)
    } catch let error as TraceFileError {
        fail(error.description)
    } catch {
        fail("cannot read \(path): \(error.localizedDescription)")
    }
    var start = 0
    if let number = options.startFrame {
        // The first frame numbered at least `number`.
        while let n = reader.frameNumber(ofFrameAt: start), n < number { start += 1 }
        if reader.frameNumber(ofFrameAt: start) == nil {
            fail("\(path) has no frame \(number) or later" + (reader.frameCount.map { " (\($0) frames)" } ?? ""))
        }
    }
    if reader.frame(at: start) == nil {
        // Nothing to play: say why instead of taking the screen.
        ReplayPlayer.writeDiagnostics(reader.diagnostics, of: reader, name: path)
        fail("\(path) has no frames to play")
    }
    let player = ReplayPlayer(options: options, reader: reader, interactive: interactive, start: start)
    if let svgPath = options.svgPath {
        var svg = SVGRenderer()
        svg.keyframesPerSecond = options.svgKeyframesPerSecond
        if options.startFrame != nil, let frame = reader.frame(at: start) {
            writeFile(svg.svg(frame.report, scene: frame.scene), to: svgPath)
            warn("wrote \(svgPath): frame \(frame.report.index)")
        } else {
            let positions = svg.keyframePositions(reader, from: start, through: nil)
            writeFile(svg.animatedSVG(reader, from: start), to: svgPath)
            warn("wrote \(svgPath): \(positions.count) keyframes of \(reader.frameCount ?? 0) frames")
        }
        player.writeNewDiagnostics()
    } else if interactive {
        await play(interactive: true, fps: options.fps, frame: { player.frame($0) }, isFinished: { player.isFinished },
                   draw: { player.draw() }, finish: { player.finish($0) })
        player.writeNewDiagnostics()
        warn(player.timingSummary)
    } else {
        player.printFrames()
    }
    if options.stats {
        FileHandle.standardError.write(Data((TerminalText.escaped(player.statsReport()) + "\n").utf8))
    }
    if reader.diagnosticCount > reader.diagnostics.count {
        warn("\(reader.diagnosticCount - reader.diagnostics.count) more problems not shown")
    }
    let caught = quitSignal.load(ordering: .sequentiallyConsistent)
    if caught != 0 { exit(128 + caught) }
    exit(reader.diagnosticCount > 0 ? 1 : 0)
}

// MARK: The gallery

func openCSV() -> CSVFrameWriter? {
    guard let path = options.csvPath else { return nil }
    do {
        return try CSVFrameWriter(path: path)
    } catch {
        fail("\(error)")
    }
}

let csv = openCSV()
let player = Player(options: options, interactive: interactive, csv: csv)
await play(interactive: interactive, fps: options.fps, frame: { player.frame($0) }, isFinished: { player.isFinished },
           draw: { player.draw() }, finish: { player.finish($0) })
// The trace is closed by now: a write that failed (a full disk, a file-size limit) stopped the
// recording, and is said here rather than leaving a trace cut mid-row behind a status 0.
if let error = csv?.error {
    fail("\(error); the trace stops at the last frame written")
}
if let svgPath = options.svgPath {
    writeFile(SVGRenderer().svg(player.scene.animator), to: svgPath)
}
let caughtSignal = quitSignal.load(ordering: .sequentiallyConsistent)
if caughtSignal != 0 { exit(128 + caughtSignal) }

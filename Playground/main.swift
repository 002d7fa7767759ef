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

func parseOptions() -> PlaygroundOptions {
    do {
        return try PlaygroundOptions.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
        FileHandle.standardError.write(Data("playground: \(error.message)\n".utf8))
        exit(2)
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("playground: \(message)\n".utf8))
    exit(1)
}

/// Writes `text` to `path`, or exits with the reason.
func writeFile(_ text: String, to path: String) {
    do {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
        fail("cannot write \(path): \(error.localizedDescription)")
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

if let path = options.replayPath {
    // MARK: Replay
    let reader: TraceReader
    do {
        reader = try TraceReader(path: path)
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
        for d in reader.diagnostics { FileHandle.standardError.write(Data("playground: \(path) \(d)\n".utf8)) }
        fail("\(path) has no frames to play")
    }
    let player = ReplayPlayer(options: options, reader: reader, interactive: interactive, start: start)
    if let svgPath = options.svgPath {
        var svg = SVGRenderer()
        svg.keyframesPerSecond = options.svgKeyframesPerSecond
        if options.startFrame != nil, let frame = reader.frame(at: start) {
            writeFile(svg.svg(frame.report, scene: frame.scene), to: svgPath)
            FileHandle.standardError.write(Data("playground: wrote \(svgPath): frame \(frame.report.index)\n".utf8))
        } else {
            let positions = svg.keyframePositions(reader, from: start, through: nil)
            writeFile(svg.animatedSVG(reader, from: start), to: svgPath)
            FileHandle.standardError.write(Data(
                "playground: wrote \(svgPath): \(positions.count) keyframes of \(reader.frameCount ?? 0) frames\n".utf8))
        }
        player.writeNewDiagnostics()
    } else if interactive {
        await play(interactive: true, fps: options.fps, frame: { player.frame($0) }, isFinished: { player.isFinished },
                   draw: { player.draw() }, finish: { player.finish($0) })
        player.writeNewDiagnostics()
        FileHandle.standardError.write(Data((player.timingSummary + "\n").utf8))
    } else {
        player.printFrames()
    }
    if options.stats {
        FileHandle.standardError.write(Data((player.statsReport() + "\n").utf8))
    }
    if reader.diagnosticCount > reader.diagnostics.count {
        FileHandle.standardError.write(Data("playground: \(reader.diagnosticCount - reader.diagnostics.count) more problems not shown\n".utf8))
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
        fail("cannot write \(path): \(error)")
    }
}

let csv = openCSV()
let player = Player(options: options, interactive: interactive, csv: csv)
await play(interactive: interactive, fps: options.fps, frame: { player.frame($0) }, isFinished: { player.isFinished },
           draw: { player.draw() }, finish: { player.finish($0) })
if let svgPath = options.svgPath {
    writeFile(SVGRenderer().svg(player.scene.animator), to: svgPath)
}
let caughtSignal = quitSignal.load(ordering: .sequentiallyConsistent)
if caughtSignal != 0 { exit(128 + caughtSignal) }

import Dynamics
import DynamicsScenes
import Foundation

// `playground`: the UIKit Dynamics scene gallery in a terminal.
//
// In a terminal it takes the screen (alternate screen, hidden cursor, single-key input) and plays
// a scene in real time on a DisplayLink (ContinuousClock) at --fps, with a live stats line; keys
// switch scenes. When stdout is not a terminal it prints --frames frames (default 3) as plain
// text, separated by blank lines, ticking the link by hand so the output is the same every run.

func parseOptions() -> PlaygroundOptions {
    do {
        return try PlaygroundOptions.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
        FileHandle.standardError.write(Data("playground: \(error.message)\n".utf8))
        exit(2)
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

func openCSV() -> CSVFrameWriter? {
    guard let path = options.csvPath else { return nil }
    do {
        return try CSVFrameWriter(path: path)
    } catch {
        FileHandle.standardError.write(Data("playground: cannot write \(path): \(error)\n".utf8))
        exit(1)
    }
}

let csv = openCSV()

let interactive = Terminal.isInteractive
let player = Player(options: options, interactive: interactive, csv: csv)
let link = DisplayLink(preferredFramesPerSecond: options.fps)
link.addObserver { link in player.frame(link) }

if interactive {
    Terminal.take()
    player.draw()
    await link.run()
    player.finish(link)
    Terminal.restore()
    let signal = quitSignal.load(ordering: .sequentiallyConsistent)
    if signal != 0 { exit(128 + signal) }
} else {
    while !player.isFinished {
        link.tick()
    }
}

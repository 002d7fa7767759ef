import Dynamics
import DynamicsScenes
import DynamicsEngine
import Foundation

// `bench`: times the scenes of Benchmarks/README.md the way Box2D v3's benchmark program does, so the two
// can be compared line by line: build (untimed), one step (untimed), then steps 1…N−1 timed,
// including the scene's own per-step work; each repeat in a fresh world; min and median reported.

struct Options {
    var scenes: [String] = []
    var steps: Int? = nil
    var repeats = 4
    var json = false
    var profile = false
    var smoke = false
    var list = false
    var csvDirectory: String? = nil
    var threads = 1
    var snapshot = false
    var setup = false
    var query = false
    var render = false
}

func parseOptions() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst().makeIterator()
    func value(_ flag: String) -> String {
        guard let v = args.next() else { fail("\(flag) needs a value") }
        return v
    }
    while let a = args.next() {
        switch a {
        case "--list", "-l": o.list = true
        case "--scene", "-s": o.scenes.append(value(a))
        case "--steps": o.steps = integer(a, value(a), in: 2...maximumSteps)
        case "--repeats", "-r": o.repeats = integer(a, value(a), in: 1...maximumRepeats)
        case "--json": o.json = true
        case "--profile": o.profile = true
        case "--snapshot": o.snapshot = true
        case "--setup": o.setup = true
        case "--query": o.query = true
        case "--render": o.render = true
        case "--smoke": o.smoke = true
        case "--csv": o.csvDirectory = value(a)
        case "--threads", "-t": o.threads = integer(a, value(a), in: 1...64)
        case "--help", "-h":
            print("""
            usage: bench [--list] [--snapshot] [--setup] [--query] [--render] [--scene NAME]… [--steps N] [--repeats R] [--threads T] [--json] [--profile] [--smoke] [--csv DIR]
              --list        list the scenes
              --scene NAME  run this scene (repeatable; default: all)
              --steps N     override each scene's step count (2…10000000)
              --repeats R   fresh-world repeats per scene, 1…10000 (default 4)
              --threads T   threads per world step (default 1; results are identical for any T)
              --json        one JSON object per scene per line
              --profile     also time the engine's phases (pairs, collide, prepare joints, prepare contacts, solve,
                            restitution, store, finalize, continuous, sleep) and, for UIKit scenes, the animator
              --smoke       every scene for a few steps, one repeat (for CI)
              --csv DIR     append min/median ms per step to DIR/<scene>.csv
              --snapshot    size and encode/decode/restore time of a 1000-item animator snapshot
              --setup       setup costs (items, behaviours, children, boundaries, velocities, a deep chain, a long path,
                            a stacked heap) at n = 1e3, 1e4, 1e5
                            (with --smoke: 1e3 only); time per operation and peak memory
              --query       hit tests and ray casts on n = 1e3, 1e4, 1e5 items (with --smoke: 1e3 only), µs per query
              --render      µs per frame to draw (ASCII, SVG) and record a frame of ui_rain and ui_chains
            """)
            exit(0)
        default: fail("unknown argument \(a) (see --help)")
        }
    }
    return o
}

/// The most steps and repeats a run may ask for: enough for any measurement, and far from
/// overflowing the step counters.
let maximumSteps = 10_000_000
let maximumRepeats = 10_000

/// `text` as an integer in `range`, or exit with status 2 saying what `flag` needs.
func integer(_ flag: String, _ text: String, in range: ClosedRange<Int>) -> Int {
    guard let n = Int(text), range.contains(n) else {
        fail("\(flag) needs an integer from \(range.lowerBound) to \(range.upperBound), not \"\(TerminalText.escaped(text))\"")
    }
    return n
}

/// A mistake in the command line (or a run that is not deterministic): status 2.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench: \(TerminalText.escaped(message))\n".utf8))
    exit(2)
}

/// A file that cannot be written: status 1, naming the file and the cause.
func failWriting(_ error: OutputFileError) -> Never {
    FileHandle.standardError.write(Data("bench: \(error)\n".utf8))
    exit(1)
}

func milliseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}

signal(SIGXFSZ, SIG_IGN)   // past `ulimit -f`, a failed write with its reason, not a killed process
let options = parseOptions()
if let dir = options.csvDirectory {
    // Before minutes of measuring: the folder must be there.
    var isDirectory: ObjCBool = false
    if !FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory) {
        failWriting(OutputFileError(path: dir, cause: "no such folder", code: ENOENT))
    } else if !isDirectory.boolValue {
        failWriting(OutputFileError(path: dir, cause: "not a folder", code: ENOTDIR))
    }
}
if options.snapshot {
    runSnapshotBench(repeats: options.repeats)
    exit(0)
}
if options.setup {
    runSetupBench(scenes: options.scenes, smoke: options.smoke, json: options.json)
    exit(0)
}
if options.query {
    runQueryBench(smoke: options.smoke, json: options.json)
    exit(0)
}
if options.render {
    runRenderBench(smoke: options.smoke, json: options.json)
    exit(0)
}
let catalogue = BenchmarkScene.all
if options.list {
    for s in catalogue { print("\(s.name)\t\(s.steps) steps\t\(s.summary)") }
    exit(0)
}
var selected = catalogue
if !options.scenes.isEmpty {
    selected = []
    for name in options.scenes {
        guard let s = catalogue.first(where: { $0.name == name }) else { fail("unknown scene \(name) (see --list)") }
        selected.append(s)
    }
}

if !options.json {
    // the engine's build-time SIMD width (`-Xswiftc -DDYNAMICS_WIDE8` builds eight lanes)
    print("contact solver: \(World.contactLaneCount) lanes")
    print("scene            bodies  joints  contacts   awake   steps   min ms/step   median ms/step   hash              UIKit layer")
}
let clock = ContinuousClock()
for scene in selected {
    let steps = options.smoke ? min(options.steps ?? 5, scene.steps) : (options.steps ?? scene.steps)
    let repeats = options.smoke ? 1 : options.repeats
    var times: [Double] = []
    var counters = (bodies: 0, joints: 0, contacts: 0, awake: 0)
    var hash: UInt64 = 0
    // The share of the timed steps spent outside the engine's step (UIKit scenes): the animator's
    // forces, synchronisation, write-back, callbacks and frame reports.
    var layerShares: [Double] = []
    // Of that, the behaviours' forces (fields, gravity, push, snap): physics, not overhead.
    var forceShares: [Double] = []
    // --profile: each phase's time summed over the timed steps of every repeat.
    var phaseTotals: [Duration] = []
    var profiledSteps = 0
    // --profile: the constraint graph over the timed steps: constraints in the overflow set (solved
    // one by one on the caller), all constraints, and the most colours a step used.
    var overflowTotal = 0, constraintTotal = 0, mostColors = 0
    // Steps the pool ran on the caller alone: faster lately (a loaded machine), or a check.
    var soloSteps = 0
    for r in 0..<repeats {
        let world = scene.make(options.threads)
        world.engineWorld.isProfiling = options.profile
        world.step(index: 0)   // untimed: the first step can be expensive
        let engineBefore = world.engineTime
        let forcesBefore = world.forceTime
        let start = clock.now
        if options.profile {
            for i in 1..<steps {
                world.step(index: i)
                let phases = world.engineWorld.profile.phases
                if phaseTotals.isEmpty { phaseTotals = phases.map(\.duration) } else {
                    for (k, p) in phases.enumerated() { phaseTotals[k] += p.duration }
                }
                profiledSteps += 1
                let colors = world.engineWorld.lastColorCounts
                if let overflow = colors.first {
                    overflowTotal += overflow
                    constraintTotal += colors.reduce(0, +)
                    mostColors = max(mostColors, colors.dropFirst().filter { $0 > 0 }.count)
                }
            }
        } else {
            for i in 1..<steps { world.step(index: i) }
        }
        let total = clock.now - start
        soloSteps += world.engineWorld.soloStepCount
        let elapsed = milliseconds(total)
        times.append(elapsed / Double(max(1, steps - 1)))
        if let before = engineBefore, let after = world.engineTime, elapsed > 0 {
            layerShares.append(1 - milliseconds(after - before) / elapsed)
        }
        if let before = forcesBefore, let after = world.forceTime, elapsed > 0 {
            forceShares.append(milliseconds(after - before) / elapsed)
        }
        if r == 0 {
            counters = (world.bodyCount, world.jointCount, world.contactCount, world.awakeBodyCount)
            hash = world.stateHash
        } else if world.stateHash != hash {
            fail("\(scene.name): repeat \(r) ended with hash \(String(world.stateHash, radix: 16)), repeat 0 with \(String(hash, radix: 16)) — not deterministic")
        }
    }
    let sorted = times.sorted()
    let minimum = sorted[0]
    let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : 0.5 * (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2])
    let hashText = String(hash, radix: 16)
    let layerShare = layerShares.isEmpty ? nil : layerShares.sorted()[layerShares.count / 2]
    let forceShare = forceShares.isEmpty ? nil : forceShares.sorted()[forceShares.count / 2]
    if options.json {
        let layer = (layerShare.map { ",\"uikit_layer_share\":\($0)" } ?? "")
            + (forceShare.map { ",\"uikit_forces_share\":\($0)" } ?? "")
        let solo = options.threads > 1 ? ",\"solo_steps\":\(soloSteps)" : ""
        print("{\"scene\":\"\(scene.name)\",\"bodies\":\(counters.bodies),\"joints\":\(counters.joints),\"steps\":\(steps),\"threads\":\(options.threads),\"contact_lanes\":\(World.contactLaneCount),\"ms_per_step_min\":\(minimum),\"ms_per_step_median\":\(median),\"contacts\":\(counters.contacts),\"awake\":\(counters.awake),\"hash\":\"\(hashText)\"\(layer)\(solo)}")
    } else {
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        func lpad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
        print(pad(scene.name, 16) + lpad("\(counters.bodies)", 7) + lpad("\(counters.joints)", 8) + lpad("\(counters.contacts)", 10)
              + lpad("\(counters.awake)", 8) + lpad("\(steps)", 8) + lpad(String(format: "%.3f", minimum), 14)
              + lpad(String(format: "%.3f", median), 17) + "   " + pad(hashText, 16)
              + (layerShare.map { lpad(String(format: "%.1f %%", 100 * $0), 13) } ?? "")
              + (forceShare.map { String(format: " (forces %.1f %%)", 100 * $0) } ?? ""))
        if soloSteps > 0 {
            print("  \(soloSteps) of \(repeats * steps) steps ran on one thread (faster lately, or a check every 32 to 256 steps)")
        }
    }
    if options.profile && profiledSteps > 0 {
        // per step, averaged over the timed steps of all repeats; the UIKit layer is the step's time
        // outside the engine
        let names = StepProfile().phases.map(\.name)
        let perStep = phaseTotals.map { milliseconds($0) / Double(profiledSteps) }
        var parts = zip(names, perStep).map { ($0, $1) }
        if let share = layerShare {
            // the layer split in two: the behaviours' forces, and the rest (sync, write-back,
            // contact callbacks, actions, frame reports)
            let forces = (forceShare ?? 0) * median
            parts.append(("forces", forces))
            parts.append(("animator", share * median - forces))
        }
        let step = parts.reduce(0) { $0 + $1.1 }
        let text = parts.map { String(format: "%@ %.3f (%.0f %%)", $0.0, $0.1, step > 0 ? 100 * $0.1 / step : 0) }
        if options.json {
            let fields = parts.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
            print("{\"scene\":\"\(scene.name)\",\"profile_ms_per_step\":{\(fields)}}")
        } else {
            print("  profile ms/step: " + text.joined(separator: "  "))
            let overflowShare = constraintTotal > 0 ? 100 * Double(overflowTotal) / Double(constraintTotal) : 0
            let graph = "  constraint graph: up to %d colours; %.2f %% of constraints in the overflow set"
            print(String(format: graph, mostColors, overflowShare))
        }
    }
    if let dir = options.csvDirectory {
        let path = dir + "/" + scene.name + ".csv"
        do {
            let file = try OutputFile(path: path, append: true)
            let isNew = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0 == 0
            let line = (isNew ? "threads,steps,ms_per_step_min,ms_per_step_median\n" : "") + "\(options.threads),\(steps),\(minimum),\(median)\n"
            try file.write(line)
            try file.close()
        } catch {
            failWriting(error)
        }
    }
}

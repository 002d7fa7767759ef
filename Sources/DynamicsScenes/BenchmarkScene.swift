import DynamicsEngine

/// One benchmark scene, engine or UIKit-level, behind one small interface so `bench` can time both
/// kinds the same way (Benchmarks/README.md).
package protocol BenchmarkWorld: AnyObject {
    /// Runs the scene's own per-step work (if any) and one fixed step of 1/60 s with 4 sub-steps.
    func step(index: Int)
    /// Time spent inside the engine's step so far, for scenes that run through the UIKit layer
    /// (so `bench` can print what the layer adds); nil for engine scenes, which are all engine.
    var engineTime: Duration? { get }
    /// Of the time outside the engine, what the behaviours' forces took (UIKit scenes; nil for
    /// engine scenes).
    var forceTime: Duration? { get }
    var bodyCount: Int { get }
    var jointCount: Int { get }
    /// Broad-phase pairs (touching or not), Box2D's "contact" counter.
    var contactCount: Int { get }
    var awakeBodyCount: Int { get }
    /// FNV-1a over all body positions and angles.
    var stateHash: UInt64 { get }
    /// The engine world that steps the scene (for its phase profile).
    var engineWorld: World { get }
}

/// A named scene with its step count and a factory for fresh worlds.
package struct BenchmarkScene: Sendable {
    package var name: String
    package var steps: Int
    package var summary: String
    /// Builds a fresh world; the argument is the number of threads to step it with.
    package var make: @Sendable (Int) -> any BenchmarkWorld
    package init(name: String, steps: Int, summary: String, make: @escaping @Sendable (Int) -> any BenchmarkWorld) {
        self.name = name; self.steps = steps; self.summary = summary; self.make = make
    }
}

/// Drives an engine scene.
final class EngineBenchmarkWorld: BenchmarkWorld {
    var engineTime: Duration? { nil }
    var forceTime: Duration? { nil }
    let world: World
    let hook: (@Sendable (World, Int) -> Void)?
    init(_ scene: EngineScene, workers: Int) { (world, hook) = scene.makeWorld(workers: workers) }
    func step(index: Int) {
        hook?(world, index)
        world.step(dt: 1.0 / 60, substeps: 4)
    }
    var bodyCount: Int { world.bodyCount }
    var jointCount: Int { world.jointCount }
    var contactCount: Int { world.contactCount }
    var awakeBodyCount: Int { world.awakeBodyCount }
    var stateHash: UInt64 { world.stateHash() }
    var engineWorld: World { world }
}

extension BenchmarkScene {
    /// Every benchmark scene in Benchmarks/README.md order: the engine scenes, then the UIKit scenes.
    package static var all: [BenchmarkScene] {
        EngineScenes.all.map { scene in
            BenchmarkScene(name: scene.name, steps: scene.steps, summary: "engine") { EngineBenchmarkWorld(scene, workers: $0) }
        } + UIKitBenchmarkScenes.all
    }
}

import DynamicsEngine
import DynamicsScenes
import Foundation

// Quick driver; the full bench comes with its own issue.
let args = CommandLine.arguments
let names = args.count > 1 ? Array(args[1...]) : ["large_pyramid"]
for name in names {
    guard let scene = EngineScenes.named(name) else { print("unknown \(name)"); continue }
    let (world, hook) = scene.makeWorld()
    hook?(world, 0)
    world.step(dt: 1.0 / 60, substeps: 4)
    let clock = ContinuousClock()
    let start = clock.now
    for i in 1..<scene.steps {
        hook?(world, i)
        world.step(dt: 1.0 / 60, substeps: 4)
    }
    let el = clock.now - start
    let ms = Double(el.components.seconds) * 1000 + Double(el.components.attoseconds) / 1e15
    print("\(name): bodies \(world.bodyCount) contacts \(world.contactCount) awake \(world.awakeBodyCount) ms/step \(String(format: "%.3f", ms / Double(scene.steps - 1))) hash \(String(world.stateHash(), radix: 16))")
}

// testcontainers publishes exposed ports on every host interface (HostIp unset);
// the house rule is that servers listen on 127.0.0.1 only, so this container
// publishes its port on the host's loopback address alone.
import { GenericContainer } from 'testcontainers';

export class LoopbackContainer extends GenericContainer {
  withLoopbackPort(containerPort: number): this {
    this.withExposedPorts(containerPort);
    this.hostConfig.PortBindings = {
      ...this.hostConfig.PortBindings,
      [`${containerPort}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: '0' }],
    };
    return this;
  }
}

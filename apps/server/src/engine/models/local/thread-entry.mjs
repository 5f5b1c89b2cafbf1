// A local model's piscina thread (pool.ts). piscina loads plain JavaScript and a new thread does not
// inherit the server's TypeScript loader (tsx): this registers it, then hands over model-thread.ts's answer.
import { register } from 'tsx/esm/api';

register();
const { default: answer } = await import('./model-thread.ts');
export default answer;

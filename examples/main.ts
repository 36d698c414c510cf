import { exampleApp } from './app';

// Build every chart first: an invalid example throws here and nothing is written.
exampleApp().synth();

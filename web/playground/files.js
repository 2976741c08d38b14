// Open a local file, with the picker or by dropping it anywhere on the page. The file is read
// here, in the tab: nothing is uploaded.

const ACCEPTED = /\.(md|markdown|txt|text|json)$/i;

/** Call `onFile(name, text)` for each file opened, `onError(message)` for one refused. */
export function acceptFiles({ picker, page, onFile, onError }) {
  async function open(file) {
    if (!file) return;
    if (!ACCEPTED.test(file.name) && !file.type.startsWith('text/')) {
      onError(`${file.name} is not a text file: open a .md, .txt, or .json transcript.`);
      return;
    }
    try {
      onFile(file.name, await file.text());
    } catch (error) {
      onError(`${file.name} could not be read: ${error.message}`);
    }
  }

  picker.addEventListener('change', () => {
    open(picker.files[0]);
    picker.value = '';  // so that opening the same file again is a change too
  });

  // The page takes a drop anywhere; without preventDefault the browser would navigate to it.
  let depth = 0;
  const dragging = (on) => page.classList.toggle('dragging', on);
  page.addEventListener('dragenter', (event) => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    depth += 1;
    dragging(true);
  });
  page.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) dragging(false);
  });
  page.addEventListener('dragover', (event) => event.preventDefault());
  page.addEventListener('drop', (event) => {
    event.preventDefault();
    depth = 0;
    dragging(false);
    open(event.dataTransfer?.files[0]);
  });
}

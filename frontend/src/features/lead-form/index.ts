export { LeadForm } from './components/lead-form';
